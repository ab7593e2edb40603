package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := planast.Validate(decode(t, tc.plan), cat, planast.Options{})
			if tc.path == "" {
				if err != nil {
					t.Fatalf("%v\n%s", err, tc.plan)
				}
				return
			}
			var pe *planast.Error
			if !errors.As(err, &pe) || len(pe.Issues) == 0 || pe.Issues[0].Code != planast.CodeType || pe.Issues[0].Path != tc.path ||
				!strings.Contains(pe.Issues[0].Hint, `"type": "text"`) {
				t.Errorf("%v, want TYPE_MISMATCH at %s with the cast as hint", err, tc.path)
			}
		})
	}
}
