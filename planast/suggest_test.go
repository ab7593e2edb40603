package planast_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// firstIssue validates p and returns its first issue.
func firstIssue(t *testing.T, p string, cat planast.Catalog, opts validate.Options) planast.Issue {
	t.Helper()
	_, err := validate.Plan(decode(t, p), cat, opts)
	return issues(t, err)[0]
}

// A planner that misspells a column is told the column it meant, so that
// its retry can succeed; a name that holds a column's name ("CityName" for
// City) gets that column; a name far from every column gets no guess but
// the table's columns, so the retry needs no other call.
func TestColumnNotFoundSuggests(t *testing.T) {
	cases := []struct {
		name, plan, path, want string
	}{
		{"qualified", plan(sel(c("ar", "Nmae")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "Nmae"; did you mean "Name"?`},
		{"unqualified", plan(sel(c("", "Titel")), albumArtist[0], albumArtist[1]), "select[0].expr.column", `no source in scope has a column "Titel"; did you mean "Title" of "al"?`},
		{"join key", plan(sel(c("al", "Title")), frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "ArtistID", "ArtstId"))), "joins[0].on[0].right_column", `"ar" has no column "ArtstId"; did you mean "ArtistId"?`},
		{"derived table column", plan(sel(c("d", "nam")), `"from":[{"subquery":`+plan(sel(c("", "Name")), frm(from("Artist", "a")))+`,"alias":"d"}]`), "select[0].expr.column", `"d" has no column "nam"; did you mean "Name"?`},
		{"abbreviation", plan(sel(c("c", "CustId")), frm(from("Customer", "c"))), "select[0].expr.column", `"c" has no column "CustId"; did you mean "CustomerId"?`},
		{"holds a column's name", plan(sel(c("ar", "ArtistFullName")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "ArtistFullName"; did you mean "Name"?`},
		{"far name", plan(sel(c("ar", "Revenue")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "Revenue"; its columns are "ArtistId", "Name"`},
		{"one letter", plan(sel(c("ar", "x")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "x"; its columns are "ArtistId", "Name"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := firstIssue(t, tc.plan, chinook, validate.Options{})
			if is.Code != planast.CodeColumnNotFound || is.Path != tc.path || is.Message != tc.want {
				t.Errorf("got %s at %s: %s\nwant %s at %s: %s", is.Code, is.Path, is.Message, planast.CodeColumnNotFound, tc.path, tc.want)
			}
		})
	}
}

// without returns chinook with one column removed: the world in which a
// hidden column does not exist.
func without(table, column string) memCatalog {
	var out memCatalog
	for _, tb := range chinook {
		cp := *tb
		if tb.Schema == "" && tb.Name == table {
			cp.Columns = nil
			for _, col := range tb.Columns {
				if col.Name != column {
					cp.Columns = append(cp.Columns, col)
				}
			}
		}
		out = append(out, &cp)
	}
	return out
}

// A suggestion must never leak a hidden column: for names near the hidden
// Customer.Email (or the hidden name itself), the refusal under the policy
// is byte for byte the refusal from a catalog where Email does not exist,
// hint included; without the policy the suggestion is Email, so the test
// would notice a leak.
func TestSuggestionsNeverRevealHiddenColumns(t *testing.T) {
	gone := without("Customer", "Email")
	for _, name := range []string{"Emial", "email", "Email", "Emails", "Mail"} {
		for _, p := range []string{
			plan(sel(c("cu", name)), frm(from("Customer", "cu"))),
			plan(sel(c("", name)), frm(from("Customer", "cu"))),
			plan(sel(c("cu", "LastName")), frm(from("Customer", "cu"), from("Invoice", "i")), joins(joinOn("inner", "cu", "i", name, "BillingCountry"))),
		} {
			hidden := firstIssue(t, p, chinook, validate.Options{Access: policy})
			missing := firstIssue(t, p, gone, validate.Options{})
			if hidden != missing {
				t.Errorf("%s: hidden and missing differ:\n%+v\n%+v", name, hidden, missing)
			}
			if strings.Contains(hidden.Message+hidden.Hint, `"Email"`) && name != "Email" {
				t.Errorf("%s: the refusal names the hidden column: %+v", name, hidden)
			}
		}
	}
	open := firstIssue(t, plan(sel(c("cu", "Emial")), frm(from("Customer", "cu"))), chinook, validate.Options{})
	if !strings.Contains(open.Message, `did you mean "Email"?`) {
		t.Errorf("without the policy, Emial should suggest Email: %+v", open)
	}
}

// FUNCTION_NOT_ALLOWED says what may stand at that position: scalar
// functions everywhere, aggregates only where an aggregate may stand,
// window functions only where a window node may.
func TestFunctionNotAllowedListsWhatIsAllowedHere(t *testing.T) {
	bad := fn("SUMM", c("", "Total"))
	cases := []struct {
		name, plan           string
		aggregates, windows  bool
		message, messageNear string
	}{
		{"select", plan(sel(item(bad, "x")), frm(from("Invoice", "i"))), true, true, `function "SUMM" is not allowed; did you mean SUM?`, ""},
		{"where", plan(sel(c("", "Total")), frm(from("Invoice", "i")), where(bin(">", bad, lit("1")))), false, false, `function "SUMM" is not allowed; did you mean SUM?`, ""},
		{"group_by", plan(sel(item(fn("COUNT"), "n")), frm(from("Invoice", "i")), `"group_by":[`+bad+`]`), false, false, "", ""},
		{"inside an aggregate", plan(sel(item(fn("MAX", bad), "x")), frm(from("Invoice", "i"))), false, false, "", ""},
		{"having", plan(sel(c("", "BillingCountry")), frm(from("Invoice", "i")), `"group_by":[`+c("", "BillingCountry")+`]`, `"having":`+bin(">", bad, lit("1"))), true, false, "", ""},
		{"window function in where", plan(sel(c("", "Total")), frm(from("Invoice", "i")), where(bin(">", fn("ROW_NUMBER"), lit("1")))), false, false, "ROW_NUMBER is a window function, and window functions are allowed only in select and order_by, outside aggregates", ""},
		{"unknown, far", plan(sel(item(fn("load_extension", lit(`"x"`)), "x")), frm(from("Invoice", "i"))), true, true, `function "load_extension" is not allowed`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := firstIssue(t, tc.plan, chinook, validate.Options{})
			if is.Code != planast.CodeFunction {
				t.Fatalf("got %+v", is)
			}
			if tc.message != "" && is.Message != tc.message {
				t.Errorf("message %q, want %q", is.Message, tc.message)
			}
			if !strings.Contains(is.Hint, "UPPER") || !strings.Contains(is.Hint, "DATE_TRUNC") {
				t.Errorf("hint lists no scalar functions: %q", is.Hint)
			}
			if got := strings.Contains(is.Hint, "aggregates:"); got != tc.aggregates {
				t.Errorf("hint lists aggregates = %v, want %v: %q", got, tc.aggregates, is.Hint)
			}
			if got := strings.Contains(is.Hint, "ROW_NUMBER"); got != tc.windows {
				t.Errorf("hint lists window functions = %v, want %v: %q", got, tc.windows, is.Hint)
			}
		})
	}
	// a window node naming a scalar or unknown function is told the window names
	w := `{"kind":"window","name":"RANKK","args":[],"order_by":[{"expr":` + c("", "Total") + `}]}`
	is := firstIssue(t, plan(sel(item(w, "r")), frm(from("Invoice", "i"))), chinook, validate.Options{})
	if is.Message != `"RANKK" is not a window function; did you mean RANK?` || !strings.Contains(is.Hint, "DENSE_RANK") || strings.Contains(is.Hint, "UPPER") {
		t.Errorf("window name: %+v", is)
	}
}

// A planner that writes SQL's word for a construct, or misspells a field,
// is pointed at the field of that node that spells it; a field that node
// does not have is never suggested as its own: one of an enclosing node
// (joins written inside a from item) is named with where it belongs.
func TestUnknownFieldSuggests(t *testing.T) {
	q := `"from":[{"table":"Track","alias":"t"}]`
	col := `{"kind":"column","table":"t","column":"Name"}`
	item := `"select":[{"expr":` + col + `,"alias":"n"}]`
	cases := []struct{ name, plan, path, want, hint string }{
		{"union", `{` + item + `,` + q + `,"union":{` + item + `,` + q + `}}`, "union", `unknown field "union"; did you mean "set_ops"?`, ""},
		{"except", `{` + item + `,` + q + `,"except":{}}`, "except", `unknown field "except"; did you mean "set_ops"?`, ""},
		{"cte", `{"cte":[],` + item + `,` + q + `}`, "cte", `unknown field "cte"; did you mean "with"?`, ""},
		{"in values", `{` + item + `,` + q + `,"where":{"kind":"in","expr":` + col + `,"values":[{"kind":"literal","value":"a"}]}}`, "where.values", `unknown field "values"; did you mean "list"?`, ""},
		{"misspelt", `{` + item + `,` + q + `,"order_bye":[]}`, "order_bye", `unknown field "order_bye"; did you mean "order_by"?`, ""},
		{"values outside in", `{` + item + `,` + q + `,"values":[]}`, "values", `unknown field "values"; the plan language has no such field`, ""},
		{"far name", `{` + item + `,` + q + `,"raw_sql":"x"}`, "raw_sql", `unknown field "raw_sql"; the plan language has no such field`, ""},
		// fields of an enclosing node, exact or misspelt
		{"join in a from item", `{` + item + `,"from":[{"table":"Track","alias":"t"},{"table":"Album","alias":"a","join":{"type":"inner"}}]}`, "from[1].join",
			`unknown field "join"; a from item has no such field`, `"joins" is a field of the enclosing query (the plan's top level), not of a from item: write it there`},
		{"where in a join", `{` + item + `,` + q + `,"joins":[{"left":"t","right":"a","on":[],"where":{}}]}`, "joins[0].where",
			`unknown field "where"; a join has no such field`, `"where" is a field of the enclosing query (the plan's top level), not of a join: write it there`},
		{"alias in an expression", `{"select":[{"expr":{"kind":"column","table":"t","column":"Name","alias":"n"}}],` + q + `}`, "select[0].expr.alias",
			`unknown field "alias"; a column expression has no such field`, `"alias" is a field of the enclosing select item (at select[0]), not of a column expression: write it there`},
		{"joins in a subquery's from item", `{` + item + `,"from":[{"alias":"s","subquery":{` + item + `,"from":[{"table":"Track","alias":"t","joins":[]}]}}]}`, "from[0].subquery.from[0].joins",
			`unknown field "joins"; a from item has no such field`, `"joins" is a field of the enclosing query (at from[0].subquery), not of a from item: write it there`},
		{"right inside left", `{` + item + `,` + q + `,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t","column":"Name","right":{"kind":"literal","value":"a"}}}}`, "where.left.right",
			`unknown field "right"; a column expression has no such field`, `"right" is a field of the enclosing binary expression (at where), not of a column expression: write it there`},
		// a node read and closed before is no enclosing node: "table" of
		// from[0] is not suggested to the join read after it
		{"table in a join", `{` + item + `,` + q + `,"joins":[{"left":"t","right":"a","on":[],"table":"Album"}]}`, "joins[0].table",
			`unknown field "table"; the plan language has no such field`, ""},
		// a synonym edit distance cannot find, written out
		{"desc flag", `{` + item + `,` + q + `,"order_by":[{"expr":` + col + `,"desc":true}]}`, "order_by[0].desc",
			`unknown field "desc"; did you mean "direction"?`, `write "direction": "desc"`},
		{"asc flag in a window", `{"select":[{"expr":{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":` + col + `,"ASC":true}]},"alias":"r"}],` + q + `}`, "select[0].expr.order_by[0].ASC",
			`unknown field "ASC"; did you mean "direction"?`, `write "direction": "asc" (or leave it out: ascending is the default)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := planast.Decode([]byte(tc.plan), planast.DefaultLimits)
			is := issues(t, err)[0]
			if is.Code != planast.CodeUnknownField || is.Path != tc.path || is.Message != tc.want || is.Hint != tc.hint {
				t.Errorf("got %s at %s: %s (hint %q)\nwant %s at %s: %s (hint %q)", is.Code, is.Path, is.Message, is.Hint, planast.CodeUnknownField, tc.path, tc.want, tc.hint)
			}
		})
	}
}

// One rule decides every suggestion: close misspellings and abbreviations
// are suggested, a distance large against the name is not (MEDIAN is not
// MIN, and a host told so would compute the wrong thing).
func TestNearest(t *testing.T) {
	cases := []struct {
		name  string
		cands []string
		want  string
	}{
		{"Nmae", []string{"Name", "Title"}, "Name"},
		{"lang_id", []string{"language_id", "last_update"}, "language_id"},
		{"MEDIAN", []string{"MIN", "MAX", "AVG"}, ""},
		{"x", []string{"Name", "id"}, ""},
		{"id", []string{"ArtistId", "Name"}, ""},
		{"Revenue", []string{"Name", "ArtistId"}, ""},
		// a value typed in lower case meant the lower-case one: "Paid" is
		// as near once case is ignored, and holds other rows
		{"payd", []string{"Paid", "cancelled", "paid", "paid ", "payed"}, "paid"},
		// one number for the other, three edits apart: a table named in
		// the singular (an access pattern, a plan) meant the plural one
		{"delivery", []string{"deliveries", "members"}, "deliveries"},
		{"coop.main.Category", []string{"coop.main.categories", "coop.main.crops"}, "coop.main.categories"},
	}
	for _, tc := range cases {
		if got := planast.Nearest(tc.name, tc.cands); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Near lists every close candidate, so that a warning about a misspelt
// value shows all the spellings it may have meant, nearest first.
func TestNear(t *testing.T) {
	got := planast.Near("payd", []string{"shipped", "Paid", "paid", "payed", "paid", "cancelled"})
	want := []string{"paid", "payed", "Paid"}
	if !slices.Equal(got, want) {
		t.Errorf("Near(payd) = %q, want %q", got, want)
	}
	if got := planast.Near("x", []string{"Name", "id"}); len(got) != 0 {
		t.Errorf("Near(x) = %q, want none", got)
	}
}

// A refusal of several unknown functions carries the allowed list once: a
// host pays for every copy in its context. MEDIAN gets no "did you mean
// MIN", a different computation.
func TestFunctionRefusalListsOnce(t *testing.T) {
	fn := func(name string) string {
		return `{"kind":"func","name":"` + name + `","args":[{"kind":"column","table":"t","column":"Milliseconds"}]}`
	}
	p := `{"select":[{"expr":` + fn("CORR") + `,"alias":"s"},{"expr":` + fn("MEDIAN") + `,"alias":"m"}],"from":[{"table":"Track","alias":"t"}]}`
	_, err := validate.Plan(decode(t, p), chinook, validate.Options{})
	var pe *planast.Error
	if !errors.As(err, &pe) || len(pe.Issues) != 2 {
		t.Fatalf("want two issues, got %v", err)
	}
	all, _ := json.Marshal(pe.Issues)
	text := pe.Brief() + string(all)
	if n := strings.Count(text, "ROUND"); n != 1 {
		t.Errorf("the allowed functions appear %d times in the issues and the message:\n%s", n, text)
	}
	if strings.Contains(pe.Issues[1].Message, "did you mean") {
		t.Errorf("MEDIAN got a far guess: %s", pe.Issues[1].Message)
	}
}

// listed is a catalog that lists its tables (validate.TableLister), as
// the server's snapshots do.
type listed struct{ memCatalog }

func (l listed) TableNames() []string {
	var out []string
	for _, t := range l.memCatalog {
		out = append(out, t.Name)
	}
	return out
}

// Threat: a host names a table the datasource lacks (a guess, another
// datasource's table) and is told only that it does not exist, so its
// retry is another guess. The refusal lists the tables it may read
// instead (bounded), never one the caller's access hides.
func TestTableNotFoundListsVisibleTables(t *testing.T) {
	is := firstIssue(t, plan(sel(c("r", "x")), frm(from("Revenue", "r"))), listed{chinook}, validate.Options{Access: policy})
	if is.Code != planast.CodeTableNotFound || !strings.Contains(is.Message, `its tables are "`) || !strings.Contains(is.Message, `"Album"`) {
		t.Errorf("got %s: %s; want the visible tables listed", is.Code, is.Message)
	}
	if strings.Contains(is.Message, `"Employee"`) {
		t.Errorf("the list names a hidden table: %s", is.Message)
	}
}

// A planner that writes a SQL function the plan language spells otherwise
// (LEN, IFNULL) or lacks (LPAD, STRING_AGG, MEDIAN) is told what to write,
// not the function nearest by spelling: "did you mean LEAD?" for LPAD or
// LEN sends it to a window function it never wanted. A misspelling of a
// plan function still gets the nearest one.
func TestSQLFunctionsGetAdviceNotTheNearestName(t *testing.T) {
	cases := []struct{ name, want, not string }{
		{"LPAD", "RIGHT(CONCAT('00000000', x), n)", "LEAD"},
		{"REGEXP_REPLACE", "no such text function", "did you mean"},
		// ROUND alone does not round up: 109.12 is 109 either way
		{"CEIL", "ROUND(x) + 1", ""},
		{"len", "write LENGTH(x)", "LEAD"},
		{"IFNULL", "COALESCE", ""},
		{"string_agg", "no list aggregate", "did you mean"},
		{"POWER", "no power function", "did you mean"},
		{"MEDIAN", "no percentile aggregate", "MIN"},
		{"NOW", "literal", ""},
		{"COALESCEE", `function "COALESCEE" is not allowed; did you mean COALESCE?`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(sel(item(fn(tc.name, c("", "Total")), "x")), frm(from("Invoice", "i")))
			is := firstIssue(t, p, chinook, validate.Options{})
			if is.Code != planast.CodeFunction || !strings.Contains(is.Message, tc.want) || (tc.not != "" && strings.Contains(is.Message, tc.not)) {
				t.Errorf("got %s %q, want it to say %q and not %q", is.Code, is.Message, tc.want, tc.not)
			}
		})
	}
}
