package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
)

// RowLimit is the warning of a result cut at the datasource's row limit
// (limit rows kept of more): how many rows the result holds and, when the
// plan asked for more than the limit allows, that its own limit was
// lowered, so a host that asked for 5,000 rows does not take 1,000 for
// all there are.
func RowLimit(plan *planast.Query, limit int) string {
	asked := ""
	if plan != nil && plan.Limit != nil && *plan.Limit > int64(limit) {
		asked = fmt.Sprintf(" (the plan asked for %d)", *plan.Limit)
	}
	return fmt.Sprintf("the result was cut at the datasource's row limit of %d rows%s; more rows matched: aggregate, add a filter, or ask for fewer rows", limit, asked)
}
