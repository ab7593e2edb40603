package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
)

// Ties says when limit with ties returned more rows than the limit,
// so that "the top 10" with 12 rows is not read as a miscount.
func Ties(p *planast.Query, n int) string {
	if p == nil || !p.WithTies || p.Limit == nil || int64(n) <= *p.Limit {
		return ""
	}
	return fmt.Sprintf("limit %d with ties returned %d rows: %d more tie with the last kept row on every order_by key", *p.Limit, n, int64(n)-*p.Limit)
}
