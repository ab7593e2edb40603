package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A host sorting or grouping by a PostgreSQL json column would get the
// database's "could not identify an ordering operator" after the query was
// sent; the validator refuses it first, with the cast that works, and
// still lets the column be selected.
func TestValidateRefusesOrderingUnorderedColumns(t *testing.T) {
	docs := table("", "Doc", []string{"id integer", "body text", "title text"})
	docs.Columns[1].Unordered = true
	cat := memCatalog{docs}
	body, title := c("", "body"), c("", "title")
	src := frm(from("Doc", "d"))
	for _, tc := range []struct {
		name, plan, path string // path "" when the plan is valid
	}{
		{"selected", plan(sel(body, title), src), ""},
		{"ordered by", plan(sel(title), src, orderBy(body, "asc")), "order_by[0].expr"},
		{"grouped by", plan(sel(body, item(fn("COUNT"), "n")), src, `"group_by":[`+body+`]`), "group_by[0]"},
		{"distinct", plan(`"distinct":true`, sel(body), src), "select[0].expr"},
		{"union", plan(sel(body), src, `"set_ops":[{"op":"union","query":`+plan(sel(body), src)+`}]`), "select[0].expr"},
		{"union all", plan(sel(body), src, `"set_ops":[{"op":"union_all","query":`+plan(sel(body), src)+`}]`), ""},
		{"in a derived table", plan(sel(c("s", "title")), `"from":[{"alias":"s","subquery":`+plan(sel(title), src, orderBy(body, "asc"), `"limit":3`)+`}]`), "from[0].subquery.order_by[0].expr"},
		{"ordered by the cast", plan(sel(title), src, orderBy(`{"kind":"cast","expr":`+body+`,"type":"text"}`, "asc")), ""},
		// the mark follows the column out of a derived table or a CTE
		{"derived table ordered outside", plan(sel(c("s", "b")), `"from":[{"alias":"s","subquery":`+plan(sel(item(body, "b")), src)+`}]`, orderBy(c("s", "b"), "asc")), "order_by[0].expr"},
		{"derived table selected outside", plan(sel(c("s", "b")), `"from":[{"alias":"s","subquery":`+plan(sel(item(body, "b")), src)+`}]`), ""},
		{"cte grouped outside", plan(`"with":[{"name":"w","query":`+plan(sel(item(body, "b")), src)+`}]`, sel(c("", "b"), item(fn("COUNT"), "n")), frm(from("w", "w")), `"group_by":[`+c("", "b")+`]`), "group_by[0]"},
		{"cte distinct outside", plan(`"with":[{"name":"w","query":`+plan(sel(item(body, "b")), src)+`}]`, `"distinct":true`, sel(c("w", "b")), frm(from("w", "w"))), "select[0].expr"},
		{"ordered by its output alias", plan(sel(item(body, "b")), src, orderBy(c("", "b"), "asc")), "order_by[0].expr"},
		{"coalesce ordered", plan(sel(title), src, orderBy(fn("COALESCE", body, body), "asc")), "order_by[0].expr"},
		{"second branch of a union", plan(sel(title), src, `"set_ops":[{"op":"union","query":`+plan(sel(body), src)+`}]`), "set_ops[0].query.select[0].expr"},
		// expression subqueries are checked as queries, and comparisons refused
		{"scalar subquery ordering", plan(sel(title, item(`{"kind":"subquery","query":`+plan(sel(title), src, orderBy(body, "asc"), `"limit":1`)+`}`, "t")), src), "select[1].expr.query.order_by[0].expr"},
		{"exists subquery grouping", plan(sel(title), src, where(`{"kind":"exists","subquery":`+plan(sel(item(fn("COUNT"), "n")), src, `"group_by":[`+body+`]`)+`}`)), "where.subquery.group_by[0]"},
		{"in subquery selecting it", plan(sel(title), src, where(`{"kind":"in","expr":`+title+`,"subquery":`+plan(sel(body), src)+`}`)), "where.subquery.select[0].expr"},
		{"compared", plan(sel(title), src, where(bin("=", body, lit(`"x"`)))), "where.left"},
		{"count distinct", plan(sel(item(`{"kind":"func","name":"COUNT","distinct":true,"args":[`+body+`]}`, "n")), src), "select[0].expr.args[0]"},
		{"max", plan(sel(item(fn("MAX", body), "m")), src), "select[0].expr.args[0]"},
		{"window partition", plan(sel(title, item(`{"kind":"window","name":"ROW_NUMBER","args":[],"partition_by":[`+body+`]}`, "r")), src), "select[1].expr.partition_by[0]"},
		{"compared after the cast", plan(sel(title), src, where(bin("=", `{"kind":"cast","expr":`+body+`,"type":"text"}`, lit(`"x"`)))), ""},
		{"counted", plan(sel(item(fn("COUNT", body), "n")), src), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := validate.Plan(decode(t, tc.plan), cat, validate.Options{})
			if tc.path == "" {
				if err != nil {
					t.Fatalf("%v\n%s", err, tc.plan)
				}
				return
			}
			var pe *planast.Error
			if !errors.As(err, &pe) || !hasUnorderedIssue(pe.Issues, tc.path) {
				t.Errorf("%v, want TYPE_MISMATCH at %s with the cast as hint", err, tc.path)
			}
		})
	}
}

// hasUnorderedIssue reports whether issues hold the type error at path
// with the cast to text as hint.
func hasUnorderedIssue(issues []planast.Issue, path string) bool {
	for _, is := range issues {
		if is.Code == planast.CodeType && is.Path == path && strings.Contains(is.Hint, `"type": "text"`) {
			return true
		}
	}
	return false
}
