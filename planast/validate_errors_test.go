package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

type refusal struct {
	name, plan string
	opts       validate.Options
	code       planast.Code
	path       string // "" means: do not check
}

// refuse decodes and validates r.plan and checks that r.code is reported
// (at r.path). It returns the issues.
func refuse(t *testing.T, r refusal) []planast.Issue {
	t.Helper()
	q, err := planast.Decode([]byte(r.plan), planast.Limits{})
	if err == nil {
		var v *validate.Result
		cat := planast.Catalog(chinook)
		if r.code == planast.CodeAmbiguousTable {
			// the one refusal that needs tables of one name in two schemas
			cat = twoStaffs
		}
		v, err = validate.Plan(q, cat, r.opts)
		if err == nil {
			t.Fatalf("accepted: %s", v.Plan.Canonical())
		}
	}
	is := issues(t, err)
	for _, i := range is {
		if i.Code == r.code && (r.path == "" || i.Path == r.path) {
			return is
		}
	}
	t.Fatalf("want %s at %q, got %v", r.code, r.path, err)
	return nil
}

var tracks = frm(from("Track", "t"))

func refusals() []refusal {
	sub := func(q string) string { return `{"kind":"subquery","query":` + q + `}` }
	win := func(name string, args ...string) string {
		return `{"kind":"window","name":"` + name + `","args":[` + strings.Join(args, ",") + `]}`
	}
	gb := func(e string) string { return `"group_by":[` + e + `]` }
	none := validate.Options{}
	return []refusal{
		// decoding
		{"too large", `{"select":` + nest("[", "", "]", 500) + `}`, none, planast.CodeTooLarge, ""},
		{"malformed", `{"select":`, none, planast.CodeMalformed, ""},
		{"unknown field", plan(sel(c("", "Name")), tracks, `"sql":"x"`), none, planast.CodeUnknownField, "sql"},
		{"bad enum", plan(sel(c("", "Name")), tracks, `"order_by":[{"expr":`+c("", "Name")+`,"direction":"sideways"}]`), none, planast.CodeBadValue, "order_by[0].direction"},
		// names
		{"unknown table", plan(sel(c("", "x")), frm(from("Tracks", "t"))), none, planast.CodeTableNotFound, "from[0].table"},
		{"hidden table", plan(sel(c("", "LastName")), frm(from("Employee", "e"))), validate.Options{Access: policy}, planast.CodeTableNotFound, "from[0].table"},
		{"unknown schema", plan(sel(c("", "Total")), `"from":[{"schema":"nope","table":"Invoice","alias":"i"}]`), none, planast.CodeTableNotFound, "from[0].table"},
		{"control character in table", plan(sel(c("", "x")), frm(from(`Track\u0001`, "t"))), none, planast.CodeTableNotFound, "from[0].table"},
		{"CTE reads itself", plan(`"with":[{"name":"Track","query":`+plan(sel(c("", "Name")), tracks)+`}]`, sel(c("", "Name")), tracks), none, planast.CodeTableNotFound, "with[0].query.from[0].table"},
		{"CTE reads a later CTE", plan(`"with":[{"name":"a","query":`+plan(sel(c("", "Name")), frm(from("b", "x")))+`},{"name":"b","query":`+plan(sel(c("", "Name")), tracks)+`}]`, sel(c("", "Name")), frm(from("a", "a"))), none, planast.CodeTableNotFound, "with[0].query.from[0].table"},
		{"CTE reads a later CTE in a subquery", plan(`"with":[{"name":"a","query":`+plan(sel(c("", "Name")), tracks, where(`{"kind":"exists","subquery":`+plan(sel(c("", "Name")), frm(from("B", "x")))+`}`))+`},{"name":"b","query":`+plan(sel(c("", "Name")), tracks)+`}]`, sel(c("", "Name")), frm(from("a", "a"))), none, planast.CodeTableNotFound, "with[0].query.where.subquery.from[0].table"},
		{"unknown column", plan(sel(c("t", "Nme")), tracks), none, planast.CodeColumnNotFound, "select[0].expr.column"},
		{"unknown unqualified column", plan(sel(c("", "Nme")), tracks), none, planast.CodeColumnNotFound, "select[0].expr.column"},
		{"hidden column", plan(sel(c("cu", "Email")), frm(from("Customer", "cu"))), validate.Options{Access: policy}, planast.CodeColumnNotFound, "select[0].expr.column"},
		{"unknown join column", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "g", "GenreId", "Id"))), none, planast.CodeColumnNotFound, "joins[0].on[0].right_column"},
		{"ambiguous column", plan(sel(c("", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "g", "GenreId", "GenreId"))), none, planast.CodeAmbiguous, "select[0].expr.column"},
		{"unknown alias", plan(sel(c("x", "Name")), tracks), none, planast.CodeAliasNotFound, "select[0].expr.table"},
		{"unknown join alias", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "x", "g", "GenreId", "GenreId"))), none, planast.CodeAliasNotFound, "joins[0].left"},
		{"join condition reads a later source", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g"), from("Album", "al")),
			`"joins":[{"left":"t","right":"g","on":[{"left_column":"GenreId","right_column":"GenreId"}],"condition":`+bin(">", c("al", "AlbumId"), lit("1"))+`},`+joinOn("inner", "t", "al", "AlbumId", "AlbumId")+`]`), none, planast.CodeAliasNotFound, "joins[0].condition.left.table"},
		{"duplicate source alias", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "T")), joins(joinOn("inner", "t", "T", "GenreId", "GenreId"))), none, planast.CodeDuplicateAlias, "from[1].alias"},
		{"duplicate output alias", plan(sel(c("", "Name"), item(c("", "Composer"), "name")), tracks), none, planast.CodeDuplicateAlias, "select[1].alias"},
		{"duplicate CTE", plan(`"with":[{"name":"a","query":`+minimal+`},{"name":"A","query":`+minimal+`}]`, sel(c("", "Name")), frm(from("a", "a"))), none, planast.CodeDuplicateAlias, "with[1].name"},
		{"control character in alias", plan(sel(item(c("", "Name"), `a\u0007`)), tracks), none, planast.CodeBadValue, "select[0].alias"},
		// joins
		{"not joined", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g"))), none, planast.CodeNotJoined, "from"},
		{"join to itself", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "t", "GenreId", "GenreId"))), none, planast.CodeBadJoin, "joins[0]"},
		{"join left not yet joined", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g"), from("Album", "al")), joins(joinOn("inner", "g", "al", "GenreId", "AlbumId"), joinOn("inner", "t", "g", "GenreId", "GenreId"))), none, planast.CodeBadJoin, "joins[0].left"},
		{"join right joined twice", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "g", "GenreId", "GenreId"), joinOn("left", "t", "g", "GenreId", "GenreId"))), none, planast.CodeBadJoin, "joins[1].right"},
		{"join without keys", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), `"joins":[{"left":"t","right":"g","on":[]}]`), none, planast.CodeBadJoin, "joins[0].on"},
		{"full join on a condition only", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), `"joins":[{"type":"full","left":"t","right":"g","on":[],"condition":`+bin("=", c("t", "GenreId"), c("g", "GenreId"))+`}]`), none, planast.CodeBadJoin, "joins[0].on"},
		{"subquery in a left join condition", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")),
			`"joins":[{"type":"left","left":"t","right":"g","on":[{"left_column":"GenreId","right_column":"GenreId"}],"condition":{"kind":"exists","subquery":`+plan(sel(c("", "AlbumId")), frm(from("Album", "al")))+`}}]`), none, planast.CodeBadJoin, "joins[0].condition"},
		{"outer column in a left join condition", plan(sel(c("", "Name")), frm(from("Artist", "ar")), where(`{"kind":"exists","subquery":`+plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")),
			`"joins":[{"type":"left","left":"t","right":"g","on":[{"left_column":"GenreId","right_column":"GenreId"}],"condition":`+bin("=", c("g", "Name"), c("ar", "Name"))+`}]`)+`}`)), none, planast.CodeBadJoin, "where.subquery.joins[0].condition"},
		{"undeclared join", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "g", "Milliseconds", "GenreId"))), validate.Options{Joins: validate.JoinDeclared}, planast.CodeBadJoin, "joins[0].on[0]"},
		{"uninferable join", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Album", "al")), joins(joinOn("inner", "t", "al", "Milliseconds", "ArtistId"))), validate.Options{Joins: validate.JoinInferable}, planast.CodeBadJoin, "joins[0].on[0]"},
		// functions
		{"unknown function", plan(sel(item(fn("load_extension", lit(`"/tmp/x.so"`)), "x")), tracks), none, planast.CodeFunction, "select[0].expr.name"},
		{"window-only function as func", plan(sel(item(fn("ROW_NUMBER"), "x")), tracks), none, planast.CodeFunction, "select[0].expr.name"},
		{"scalar function as window", plan(sel(item(win("UPPER", c("", "Name")), "x")), tracks), none, planast.CodeFunction, "select[0].expr.name"},
		{"wrong arity", plan(sel(item(fn("UPPER"), "x")), tracks), none, planast.CodeArity, "select[0].expr.args"},
		{"variadic too few", plan(sel(item(fn("CONCAT", c("", "Name")), "x")), tracks), none, planast.CodeArity, "select[0].expr.args"},
		{"count distinct of nothing", plan(sel(item(`{"kind":"func","name":"COUNT","distinct":true,"args":[]}`, "x")), tracks), none, planast.CodeArity, "select[0].expr.args"},
		{"in subquery with two columns", plan(sel(c("", "Name")), tracks, where(`{"kind":"in","expr":`+c("", "GenreId")+`,"subquery":`+plan(sel(c("", "GenreId"), c("", "Name")), frm(from("Genre", "g")))+`}`)), none, planast.CodeArity, "where.subquery"},
		{"scalar subquery with two columns", plan(sel(item(sub(plan(sel(c("", "GenreId"), c("", "Name")), frm(from("Genre", "g")))), "x")), tracks), none, planast.CodeArity, "select[0].expr.query"},
		{"distinct on a scalar function", plan(sel(item(`{"kind":"func","name":"UPPER","distinct":true,"args":[`+c("", "Name")+`]}`, "x")), tracks), none, planast.CodeBadValue, "select[0].expr.distinct"},
		{"bad date unit", plan(sel(item(fn("DATE_PART", lit(`"fortnight"`), c("", "InvoiceDate")), "x")), frm(from("Invoice", "i"))), none, planast.CodeBadValue, "select[0].expr.args[0]"},
		{"unit of another date function", plan(sel(item(fn("PERIOD_LABEL", lit(`"week"`), c("", "InvoiceDate")), "x")), frm(from("Invoice", "i"))), none, planast.CodeBadValue, "select[0].expr.args[0]"},
		{"a date truncated to the hour", plan(sel(item(fn("DATE_TRUNC", lit(`"hour"`), c("", "SignupDate")), "x")), frm(from("Customer", "cu"))), none, planast.CodeType, "select[0].expr.args[1]"},
		{"unit not a literal", plan(sel(item(fn("DATE_TRUNC", c("", "BillingCountry"), c("", "InvoiceDate")), "x")), frm(from("Invoice", "i"))), none, planast.CodeBadValue, "select[0].expr.args[0]"},
		{"unit with a quote", plan(sel(item(fn("DATE_TRUNC", lit(`"month') --"`), c("", "InvoiceDate")), "x")), frm(from("Invoice", "i"))), none, planast.CodeBadValue, "select[0].expr.args[0]"},
		{"stddev over a window", plan(sel(item(win("STDDEV", c("", "Milliseconds")), "x")), tracks), none, planast.CodeFunction, "select[0].expr.name"},
		{"stddev of text", plan(sel(item(fn("STDDEV_POP", c("", "Name")), "x")), tracks), none, planast.CodeType, "select[0].expr.args[0]"},
		{"negative lag offset", plan(sel(item(win("LAG", c("", "Name"), lit("-1")), "x")), tracks), none, planast.CodeBadValue, "select[0].expr.args[1]"},
		{"expected columns differ", minimal, validate.Options{ExpectedColumns: []string{"name"}}, planast.CodeBadValue, "select"},
		// types
		{"date compared with a number", plan(sel(c("", "Total")), frm(from("Invoice", "i")), where(bin(">", c("", "InvoiceDate"), lit("42")))), none, planast.CodeType, "where"},
		{"date compared with a boolean", plan(sel(c("", "Total")), frm(from("Invoice", "i")), where(bin(">", c("", "InvoiceDate"), lit("true")))), none, planast.CodeType, "where"},
		{"condition not boolean", plan(sel(c("", "Name")), tracks, where(c("", "Name"))), none, planast.CodeType, "where"},
		{"integer as a condition", plan(sel(c("", "Name")), tracks, where(c("", "GenreId"))), none, planast.CodeType, "where"},
		{"not of an integer", plan(sel(c("", "Name")), tracks, where(`{"kind":"unary","op":"not","expr":`+c("", "GenreId")+`}`)), none, planast.CodeType, "where.expr"},
		{"boolean compared with an integer", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(bin("=", c("", "Active"), lit("1")))), none, planast.CodeType, "where"},
		{"date compared with a text column", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(bin("=", c("", "SignupDate"), c("", "Country")))), none, planast.CodeType, "where"},
		{"date compared with a string that is no date", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(bin("<", c("", "SignupDate"), lit(`"last year"`)))), none, planast.CodeType, "where"},
		{"date compared with a timestamp string", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(bin("<", c("", "SignupDate"), lit(`"2021-01-01 10:00:00"`)))), none, planast.CodeType, "where"},
		{"date in a list of strings that are no dates", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(`{"kind":"in","expr":`+c("", "SignupDate")+`,"list":[`+lit(`"2021-01-01"`)+`,`+lit(`"soon"`)+`]}`)), none, planast.CodeType, "where.list[1]"},
		{"timestamp join key against a date", plan(sel(c("i", "Total")), frm(from("Invoice", "i"), from("Customer", "cu")), joins(joinOn("inner", "i", "cu", "InvoiceDate", "SignupDate"))), none, planast.CodeType, "joins[0].on[0]"},
		{"set op of a date and a timestamp", plan(sel(c("", "SignupDate")), frm(from("Customer", "cu")), `"set_ops":[{"op":"union","query":`+plan(sel(c("", "InvoiceDate")), frm(from("Invoice", "i")))+`}]`), none, planast.CodeType, "set_ops[0].query.select[0]"},
		{"case on NULL", plan(sel(item(`{"kind":"case","operand":`+lit("null")+`,"whens":[{"when":`+lit("1")+`,"then":`+lit("2")+`}]}`, "x")), tracks), none, planast.CodeType, "select[0].expr.operand"},
		{"sum of NULL", plan(sel(item(fn("SUM", lit("null")), "x")), tracks), none, planast.CodeType, "select[0].expr.args[0]"},
		{"NULL plus NULL", plan(sel(item(bin("+", lit("null"), lit("null")), "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"case of NULLs only", plan(sel(item(`{"kind":"case","whens":[{"when":`+lit("true")+`,"then":`+lit("null")+`}]}`, "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"coalesce of NULLs only", plan(sel(item(fn("COALESCE", lit("null"), lit("null")), "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"NULL column of a derived table", plan(sel(c("d", "x")), `"from":[{"subquery":`+plan(sel(item(lit("null"), "x")), tracks)+`,"alias":"d"}]`), none, planast.CodeType, "from[0].subquery.select[0].expr"},
		{"NULL column of a set operation", plan(`"distinct":true`, sel(item(lit("null"), "x")), tracks, `"set_ops":[{"op":"union","query":`+plan(sel(c("", "UnitPrice")), tracks)+`}]`), none, planast.CodeType, "select[0].expr"},
		{"substr with a negative length", plan(sel(item(fn("SUBSTR", c("", "Name"), lit("2"), lit("-1")), "x")), tracks), none, planast.CodeBadValue, "select[0].expr.args[2]"},
		{"like on a number", plan(sel(c("", "Name")), tracks, where(`{"kind":"like","expr":`+c("", "Milliseconds")+`,"pattern":`+lit(`"1%"`)+`}`)), none, planast.CodeType, "where.expr"},
		{"arithmetic on text", plan(sel(item(bin("+", c("", "Name"), lit("1")), "x")), tracks), none, planast.CodeType, "select[0].expr.left"},
		{"remainder of a decimal", plan(sel(item(bin("%", c("", "UnitPrice"), lit("2")), "x")), tracks), none, planast.CodeType, "select[0].expr.left"},
		{"lag default of another type", plan(sel(item(win("LAG", c("", "Name"), lit("1"), lit("0")), "x")), tracks), none, planast.CodeType, "select[0].expr.args[2]"},
		{"case branches differ", plan(sel(item(`{"kind":"case","whens":[{"when":`+lit("true")+`,"then":`+lit("1")+`}],"else":`+lit(`"x"`)+`}`, "x")), tracks), none, planast.CodeType, "select[0].expr.else"},
		{"function argument type", plan(sel(item(fn("UPPER", c("", "Milliseconds")), "x")), tracks), none, planast.CodeType, "select[0].expr.args[0]"},
		{"join key types", plan(sel(c("t", "Name")), frm(from("Track", "t"), from("Genre", "g")), joins(joinOn("inner", "t", "g", "Name", "GenreId"))), none, planast.CodeType, "joins[0].on[0]"},
		{"cast boolean to integer", plan(sel(item(`{"kind":"cast","expr":`+c("", "Active")+`,"type":"integer"}`, "x")), frm(from("Customer", "cu"))), none, planast.CodeType, "select[0].expr"},
		{"cast decimal to boolean", plan(sel(item(`{"kind":"cast","expr":`+c("", "UnitPrice")+`,"type":"boolean"}`, "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"cast text to boolean", plan(sel(item(`{"kind":"cast","expr":`+c("", "Name")+`,"type":"boolean"}`, "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"cast number to date", plan(sel(item(`{"kind":"cast","expr":`+c("", "Milliseconds")+`,"type":"date"}`, "x")), tracks), none, planast.CodeType, "select[0].expr"},
		{"cast date to number", plan(sel(item(`{"kind":"cast","expr":`+c("", "SignupDate")+`,"type":"float"}`, "x")), frm(from("Customer", "cu"))), none, planast.CodeType, "select[0].expr"},
		{"set op column types", plan(sel(c("", "Milliseconds")), tracks, `"set_ops":[{"op":"union","query":`+plan(sel(c("", "InvoiceDate")), frm(from("Invoice", "i")))+`}]`), none, planast.CodeType, "set_ops[0].query.select[0]"},
		// grouping
		{"a table name two schemas hold", plan(sel(c("s", "id")), frm(from("staff", "s"))), none, planast.CodeAmbiguousTable, "from[0].table"},
		{"ungrouped column", plan(sel(c("", "Name"), item(fn("COUNT"), "n")), tracks), none, planast.CodeGrouping, "select[0].expr"},
		{"ungrouped column with group by", plan(sel(c("", "Name"), item(fn("COUNT"), "n")), tracks, gb(c("", "GenreId"))), none, planast.CodeGrouping, "select[0].expr"},
		{"aggregate in where", plan(sel(c("", "Name")), tracks, where(bin(">", fn("COUNT"), lit("1")))), none, planast.CodeGrouping, "where.left"},
		{"aggregate in group by", plan(sel(item(fn("COUNT"), "n")), tracks, gb(fn("MAX", c("", "GenreId")))), none, planast.CodeGrouping, "group_by[0]"},
		{"nested aggregate", plan(sel(item(fn("SUM", fn("COUNT")), "n")), tracks), none, planast.CodeGrouping, "select[0].expr.args[0]"},
		{"window in where", plan(sel(c("", "Name")), tracks, where(bin(">", win("ROW_NUMBER"), lit("1")))), none, planast.CodeGrouping, "where.left"},
		{"window in an aggregate", plan(sel(item(fn("SUM", win("ROW_NUMBER")), "n")), tracks), none, planast.CodeGrouping, "select[0].expr.args[0]"},
		{"having without group by or aggregate", plan(sel(c("", "Name")), tracks, `"having":`+bin(">", c("", "Milliseconds"), lit("1"))), none, planast.CodeGrouping, "having"},
		{"group by a constant", plan(sel(item(fn("COUNT"), "n")), tracks, gb(lit("1"))), none, planast.CodeGrouping, "group_by[0]"},
		{"aggregate only in order by", plan(sel(c("", "Name")), tracks, orderBy(fn("COUNT"), "asc")), none, planast.CodeGrouping, "order_by[0].expr"},
		{"aggregate only under a window, with having", plan(sel(item(`{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":`+fn("SUM", c("", "Milliseconds"))+`}]}`, "r")), tracks, `"having":`+lit("true")), none, planast.CodeGrouping, "having"},
		{"aggregate of outer columns only", plan(sel(c("ar", "Name")), frm(from("Artist", "ar")), where(bin(">", `{"kind":"subquery","query":`+plan(sel(item(fn("MAX", fn("LENGTH", c("ar", "Name"))), "m")), frm(from("Album", "al")))+`}`, lit("3")))), none, planast.CodeGrouping, "where.left.query.select[0].expr"},
		{"aggregate only in having", plan(sel(item(lit("1"), "one")), tracks, `"having":`+bin(">", fn("COUNT"), lit("1"))), none, planast.CodeGrouping, "having"},
		{"order by a constant expression", plan(sel(c("", "Name")), tracks, orderBy(`{"kind":"unary","op":"-","expr":`+lit("1")+`}`, "asc")), none, planast.CodeOrder, "order_by[0].expr"},
		{"group by a constant expression", plan(sel(item(fn("COUNT"), "n")), tracks, gb(fn("UPPER", lit(`"x"`)))), none, planast.CodeGrouping, "group_by[0]"},
		{"aggregate under a window makes an aggregate query", plan(sel(c("", "Name"), item(`{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":`+fn("SUM", c("", "Milliseconds"))+`}]}`, "r")), tracks), none, planast.CodeGrouping, "select[0].expr"},
		{"correlated ungrouped column", plan(sel(c("t", "GenreId"), item(sub(plan(sel(c("", "Title")), frm(from("Album", "al")), where(bin("=", c("al", "AlbumId"), c("t", "AlbumId"))))), "x")), tracks, gb(c("t", "GenreId"))), none, planast.CodeGrouping, "select[1].expr"},
		// order and limits
		{"offset without order", plan(sel(c("", "Name")), tracks, `"limit":10,"offset":10`), none, planast.CodeOrder, "offset"},
		{"order by a constant", plan(sel(c("", "Name")), tracks, orderBy(lit("2"), "asc")), none, planast.CodeOrder, "order_by[0].expr"},
		{"order by a string constant", plan(sel(c("", "Name")), tracks, orderBy(lit(`"Name"`), "asc")), none, planast.CodeOrder, "order_by[0].expr"},
		{"distinct order by unselected", plan(`"distinct":true`, sel(c("", "Name")), tracks, orderBy(c("", "Milliseconds"), "asc")), none, planast.CodeOrder, "order_by[0].expr"},
		{"compound order by expression", plan(sel(c("", "Name")), tracks, `"set_ops":[{"op":"union","query":`+plan(sel(c("", "Name")), frm(from("Genre", "g")))+`}]`, orderBy(fn("UPPER", c("", "Name")), "asc")), none, planast.CodeOrder, "order_by[0].expr"},
		{"negative limit", plan(sel(c("", "Name")), tracks, `"limit":-1`), none, planast.CodeLimit, "limit"},
		{"negative offset", plan(sel(c("", "Name")), tracks, orderBy(c("", "Name"), "asc"), `"offset":-5`), none, planast.CodeLimit, "offset"},
		// set operations
		{"set op column count", plan(sel(c("", "Name")), tracks, `"set_ops":[{"op":"union","query":`+plan(sel(c("", "Name"), c("", "GenreId")), frm(from("Genre", "g")))+`}]`), none, planast.CodeSetOp, "set_ops[0].query.select"},
		{"set op right side with order", plan(sel(c("", "Name")), tracks, `"set_ops":[{"op":"union","query":`+plan(sel(c("", "Name")), frm(from("Genre", "g")), `"limit":3`)+`}]`), none, planast.CodeSetOp, "set_ops[0].query"},
		// shape
		{"empty select", plan(`"select":[]`, tracks), none, planast.CodeEmptySelect, "select"},
		{"no from but group_by", plan(sel(item(lit("1"), "one")), `"group_by":[`+lit("1")+`]`), none, planast.CodeMalformed, "from"},
		// qualify and with_ties
		{"with_ties without limit", plan(sel(c("", "Name")), tracks, orderBy(c("", "Name"), "asc"), `"with_ties":true`), none, planast.CodeLimit, "with_ties"},
		{"with_ties without order_by", plan(sel(c("", "Name")), tracks, `"limit":3,"with_ties":true`), none, planast.CodeOrder, "with_ties"},
		{"qualify on a source column", plan(sel(c("", "Name")), tracks, `"qualify":`+bin("=", c("", "GenreId"), lit("1"))), none, planast.CodeColumnNotFound, "qualify"},
		{"qualify without a window", plan(sel(c("", "Name"), c("", "GenreId")), tracks, `"qualify":`+bin("=", c("", "GenreId"), lit("1"))), none, planast.CodeBadValue, "qualify"},
		// output aliases in group_by and having
		{"group_by an aggregate alias", plan(sel(c("", "GenreId"), item(fn("COUNT"), "n")), tracks, `"group_by":[`+c("", "n")+`]`), none, planast.CodeGrouping, "group_by[0]"},
		{"having an alias that is also a column", plan(sel(item(fn("UPPER", c("", "Composer")), "Name"), item(fn("COUNT"), "n")), tracks, `"group_by":[`+fn("UPPER", c("", "Composer"))+`]`, `"having":`+bin("=", c("", "Name"), lit(`"X"`))), none, planast.CodeAmbiguous, "having"},
		{"computed item without alias", plan(sel(fn("UPPER", c("", "Name"))), tracks), none, planast.CodeMalformed, "select[0].alias"},
	}
}

// twoStaffs holds a staff table in two schemas, neither the default one,
// listed as plans name them.
var twoStaffs = listedCatalog{memCatalog{
	table("hr", "staff", []string{"id integer"}), table("sales", "staff", []string{"id integer"})}}

type listedCatalog struct{ memCatalog }

func (c listedCatalog) TableNames() []string {
	var out []string
	for _, t := range c.memCatalog {
		out = append(out, t.Schema+"."+t.Name)
	}
	return out
}

// A column refused inside an aggregate is one issue: it read as a column
// of an outer query, which added a GROUPING_ERROR about subqueries to a
// plan that has none.
func TestUnknownColumnInAnAggregateIsOneIssue(t *testing.T) {
	is := refuse(t, refusal{plan: plan(sel(item(fn("COUNT", c("t", "Nmae")), "n")), tracks), code: planast.CodeColumnNotFound})
	if len(is) != 1 {
		t.Errorf("issues %v, want only COLUMN_NOT_FOUND", is)
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, r := range refusals() {
		t.Run(r.name, func(t *testing.T) { refuse(t, r) })
	}
}

// TestEveryCodeIsReachable: every code in errors.go is produced by at least
// one refusal, except ACCESS_DENIED, which planast never produces: hidden
// tables and columns are reported as not found so that a refusal does not
// reveal that they exist (engine-level policies may still use the code).
func TestEveryCodeIsReachable(t *testing.T) {
	seen := map[planast.Code]bool{}
	for _, r := range refusals() {
		seen[r.code] = true
	}
	for _, code := range allCodes {
		if code == planast.CodeAccessDenied {
			if seen[code] {
				t.Error("planast is documented not to produce ACCESS_DENIED")
			}
			continue
		}
		if !seen[code] {
			t.Errorf("no refusal produces %s", code)
		}
	}
}

func TestValidateMaxIssues(t *testing.T) {
	var items []string
	for i := 0; i < 30; i++ {
		items = append(items, c("", "nope"))
	}
	q := decode(t, plan(sel(items...), tracks))
	_, err := validate.Plan(q, chinook, validate.Options{MaxIssues: 3})
	if n := len(issues(t, err)); n != 3 {
		t.Errorf("%d issues, want 3", n)
	}
	_, err = validate.Plan(q, chinook, validate.Options{})
	if n := len(issues(t, err)); n != 20 {
		t.Errorf("%d issues, want the default 20", n)
	}
}

// A misspelled table is one issue: a group_by or having naming an output
// alias read the unknown table as holding every column, and added a false
// AMBIGUOUS_COLUMN that sent the user to "fix" a correct group_by.
func TestUnknownTableIsNotAlsoAnAmbiguousAlias(t *testing.T) {
	for _, p := range []string{
		plan(sel(item(c("t", "Composer"), "st"), item(fn("COUNT"), "n")), frm(from("Trakcs", "t")), `"group_by":[`+c("", "st")+`]`),
		plan(sel(item(c("t", "Composer"), "st"), item(fn("COUNT"), "n")), frm(from("Trakcs", "t")), `"group_by":[`+c("t", "Composer")+`]`, `"having":`+bin("=", c("", "st"), lit(`"X"`))),
	} {
		is := refuse(t, refusal{plan: p, code: planast.CodeTableNotFound})
		if len(is) != 1 {
			t.Errorf("issues %v, want only TABLE_NOT_FOUND", is)
		}
	}
}

// A literal written as the date format asks but naming no real day (30
// February) is refused for what it is: "write YYYY-MM-DD" to a literal
// written so sent the user in a circle.
func TestImpossibleDateLiteralSaysSo(t *testing.T) {
	for _, d := range []struct{ table, column, text, want string }{
		{"Invoice", "InvoiceDate", "2023-02-30", "names no real day"},
		{"Invoice", "InvoiceDate", "2023-13-01 10:00:00", "names no real day"},
		{"Invoice", "InvoiceDate", "30/02/2023", "write YYYY-MM-DD HH:MM:SS"},
		{"Customer", "SignupDate", "2023-02-30", "names no real day"},
		{"Customer", "SignupDate", "30/02/2023", "write YYYY-MM-DD"},
	} {
		p := plan(sel(c("", d.column)), frm(from(d.table, "x")), `"where":`+bin("=", c("", d.column), lit(`"`+d.text+`"`)))
		is := refuse(t, refusal{plan: p, code: planast.CodeType})
		if len(is) != 1 || !strings.Contains(is[0].Message, d.want) {
			t.Errorf("%s: issues %v, want one saying %q", d.text, is, d.want)
		}
	}
}

// The threat: "Accounts" and "accounts" in one schema were called "a
// table in several schemas", sending the user to look for schemas that
// are not there; and tables in two schemas must still be called that.
func TestAmbiguousTableSaysWhatDiffers(t *testing.T) {
	cases := []struct {
		cat         planast.Catalog
		table, want string
	}{
		{listedCatalog{memCatalog{table("", "Accounts", []string{"id integer"}), table("", "accounts", []string{"id integer"})}}, "ACCOUNTS", "differ only in letter case"},
		{twoStaffs, "staff", "several schemas"},
	}
	for _, tc := range cases {
		q, err := planast.Decode([]byte(plan(sel(c("s", "id")), frm(from(tc.table, "s")))), planast.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = validate.Plan(q, tc.cat, validate.Options{})
		var pe *planast.Error
		if !errors.As(err, &pe) || pe.FirstCode() != planast.CodeAmbiguousTable || !strings.Contains(pe.Issues[0].Message, tc.want) {
			t.Errorf("got %v, want AMBIGUOUS_TABLE saying %q", err, tc.want)
		}
	}
}

// The threat: with "Name" and "name" both in a table, NAME was answered
// "did you mean "Name"?", hiding the other column the user may mean.
func TestCaseTwinColumnsAreBothNamed(t *testing.T) {
	cat := listedCatalog{memCatalog{table("", "people", []string{"id integer", "Name text", "name text"})}}
	q, err := planast.Decode([]byte(plan(sel(c("p", "NAME")), frm(from("people", "p")))), planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = validate.Plan(q, cat, validate.Options{})
	var pe *planast.Error
	if !errors.As(err, &pe) || pe.FirstCode() != planast.CodeAmbiguous || !strings.Contains(pe.Issues[0].Message, `"Name", "name"`) {
		t.Errorf("got %v, want AMBIGUOUS_COLUMN naming both columns", err)
	}
}
