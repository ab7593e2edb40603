package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// testRecords names a flag for test or internal records
// (owners.is_test_account: schema.Column.MarksTestRecords) on a table an
// aggregating plan reads without ever reading the flag: 60 QA accounts
// carried 42% of a year's invoiced amount, and nothing in the result said
// they were in it. The warning gives the filter that leaves them out; a
// plan that reads the flag anywhere (to filter, group or show it) decided
// already.
func testRecords(snap *schema.Snapshot, plan *planast.Query) []string {
	aggregates := false
	read := map[string]bool{}
	eachQuery(plan, func(q *planast.Query) {
		aggregates = aggregates || len(q.GroupBy) > 0 || slices.ContainsFunc(q.Select, func(it planast.SelectItem) bool { return planast.ContainsAggregate(it.Expr) })
		inspectQuery(q, func(e planast.Expr) {
			if c, ok := e.(*planast.Column); ok {
				read[strings.ToLower(c.Column)] = true
			}
		})
	})
	if !aggregates {
		return nil
	}
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			t, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok {
				continue
			}
			for _, c := range t.Columns {
				marked, unmarked, ok := schemactx.TestFlag(&c)
				if !ok || read[strings.ToLower(c.Name)] {
					continue
				}
				col := fmt.Sprintf(`{"kind": "column", "table": %s, "column": %s}`, jsonText(f.Alias), jsonText(c.Name))
				m, _ := planast.JSON(marked)
				filter := fmt.Sprintf(`{"kind": "binary", "op": "!=", "left": %s, "right": {"kind": "literal", "value": %s}}`, col, m)
				if unmarked != nil && c.Profile.NullFraction == 0 {
					u, _ := planast.JSON(unmarked)
					filter = fmt.Sprintf(`{"kind": "binary", "op": "=", "left": %s, "right": {"kind": "literal", "value": %s}}`, col, u)
				} else if c.Profile.NullFraction > 0 {
					filter = fmt.Sprintf(`{"kind": "binary", "op": "or", "left": {"kind": "is_null", "expr": %s}, "right": %s}`, col, filter)
				}
				w := fmt.Sprintf(`%s.%s %s, and this plan never reads it: their rows count in the result; if they should not, add %s to the filters with "and"`,
					t.Name, c.Name, schemactx.TestFlagNote(marked), filter)
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	})
	return out
}
