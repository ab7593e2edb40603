package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
)

// zeroRatios name each output column that divides one aggregate by
// another with div (whole-number division) and is 0 in every row: SQLite
// SQL's COUNT(x) / COUNT(*) lifts to div, as SQLite divides integers, and
// a churn rate of 0 for every plan reads as an answer. The float
// quotient is what a ratio means.
func zeroRatios(plan *planast.Query, rows [][]any) []string {
	if len(rows) == 0 {
		return nil
	}
	var out []string
	for i, it := range plan.Select {
		b, ok := it.Expr.(*planast.Binary)
		if !ok || b.Op != planast.OpIDiv || !planast.ContainsAggregate(b.Left) || !planast.ContainsAggregate(b.Right) {
			continue
		}
		zero := true
		for _, r := range rows {
			if i >= len(r) || !isZero(r[i]) {
				zero = false
				break
			}
		}
		if zero {
			out = append(out, fmt.Sprintf("%q divides two aggregates with div, a whole-number division, and is 0 in every row: for the ratio write the binary \"/\" (a float quotient), and multiply by 100 for a percentage", it.Alias))
		}
	}
	return out
}
