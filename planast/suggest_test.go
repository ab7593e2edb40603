package planast_test

import (
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
// its retry can succeed; a name far from every column gets no guess.
func TestColumnNotFoundSuggests(t *testing.T) {
	cases := []struct {
		name, plan, path, want string
	}{
		{"qualified", plan(sel(c("ar", "Nmae")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "Nmae"; did you mean "Name"?`},
		{"unqualified", plan(sel(c("", "Titel")), albumArtist[0], albumArtist[1]), "select[0].expr.column", `no source in scope has a column "Titel"; did you mean "Title" of "al"?`},
		{"join key", plan(sel(c("al", "Title")), frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "ArtistID", "ArtstId"))), "joins[0].on[0].right_column", `"ar" has no column "ArtstId"; did you mean "ArtistId"?`},
		{"derived table column", plan(sel(c("d", "nam")), `"from":[{"subquery":`+plan(sel(c("", "Name")), frm(from("Artist", "a")))+`,"alias":"d"}]`), "select[0].expr.column", `"d" has no column "nam"; did you mean "Name"?`},
		{"far name", plan(sel(c("ar", "Revenue")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "Revenue"`},
		{"one letter", plan(sel(c("ar", "x")), frm(from("Artist", "ar"))), "select[0].expr.column", `"ar" has no column "x"`},
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
