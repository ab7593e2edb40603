package warnings

import (
	"encoding/json"
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
)

// zeroRatios name each output column that divides one aggregate by
// another with div (whole-number division) and is 0 or 1 in every row, 0
// in one at least: SQLite
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
		// a share (a part's count over the whole's) truncates to 0, and
		// to 1 where the part is all of it
		zeros, whole := 0, true
		for _, r := range rows {
			if i >= len(r) {
				whole = false
				break
			}
			if isZero(r[i]) {
				zeros++
			} else if !isOne(r[i]) {
				whole = false
				break
			}
		}
		if whole && zeros > 0 {
			out = append(out, fmt.Sprintf("%q divides two aggregates with div, a whole-number division, and is 0 or 1 in every row: for the ratio write the binary \"/\" (a float quotient), and multiply by 100 for a percentage", it.Alias))
		}
	}
	return out
}

// isOne reports whether a result value is the number 1.
func isOne(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 1
	case float64:
		return x == 1
	case json.Number:
		return x.String() == "1"
	case string:
		return x == "1"
	}
	return false
}
