package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// periodFuncs bucket a date or time into a period (a month, a year).
var periodFuncs = []string{"DATE_TRUNC", "PERIOD_LABEL", "DATE_PART"}

// finerGroups explain a query that selects a period of a column
// (PERIOD_LABEL('month', t.opened_at), DATE_TRUNC, DATE_PART) while it
// groups by the column itself: each timestamp is a group of its own, so
// "per month" comes back as many rows per month, each labelled with the
// same month and holding part of its rows, and a host that reads the
// first row of a month reads a sliver of it. The fix groups by the
// period the select shows, and not by the column too.
func finerGroups(plan *planast.Query) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		if len(q.GroupBy) == 0 {
			return
		}
		grouped := make([]string, 0, len(q.GroupBy))
		for _, g := range q.GroupBy {
			if b, err := planast.JSON(groupedExpr(q, g)); err == nil {
				grouped = append(grouped, string(b))
			}
		}
		for _, it := range q.Select {
			f, ok := it.Expr.(*planast.Func)
			if !ok || !slices.Contains(periodFuncs, strings.ToUpper(f.Name)) || len(f.Args) == 0 {
				continue
			}
			col, ok := f.Args[len(f.Args)-1].(*planast.Column)
			if !ok {
				continue
			}
			self, err1 := planast.JSON(f)
			raw, err2 := planast.JSON(col)
			// grouped by the column (beside the period or not), each
			// distinct value is still a group
			if err1 != nil || err2 != nil || !slices.Contains(grouped, string(raw)) {
				continue
			}
			w := fmt.Sprintf("the select shows %s but the query groups by %s itself: each distinct value is a group of its own, so one period comes back as many rows, each with part of its rows; group by %s alone, not by the column",
				self, raw, self)
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	})
	return out
}
