package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Ties says when limit with ties returned more rows than the limit, or a
// qualify keeping the top k by RANK or DENSE_RANK (without partitions)
// returned more than k rows, so that "the top 10" with 12 rows is not
// read as a miscount.
func Ties(p *planast.Query, n int) string {
	if p == nil {
		return ""
	}
	if p.WithTies && p.Limit != nil && int64(n) > *p.Limit {
		return fmt.Sprintf("limit %d with ties returned %d rows: %d more tie with the last kept row on every order_by key", *p.Limit, n, int64(n)-*p.Limit)
	}
	if name, k := rankCut(p); k > 0 && int64(n) > k {
		return fmt.Sprintf("the qualify on %s kept %d rows for a top %d: rows that tie share a rank, so %d more are kept; say the tie, or add a key to the window's order_by (ROW_NUMBER keeps exactly %d)", name, n, k, int64(n)-k, k)
	}
	return ""
}

// rankCut reads a qualify of the form alias <= k or alias < k (k an
// integer) whose alias is an unpartitioned RANK or DENSE_RANK of the
// select list: the window's name and how many rows a reader expects (k,
// or k-1 for <). 0 for any other qualify.
func rankCut(p *planast.Query) (string, int64) {
	b, ok := p.Qualify.(*planast.Binary)
	if !ok || b.Op != planast.OpLe && b.Op != planast.OpLt {
		return "", 0
	}
	ref, ok := b.Left.(*planast.Column)
	lit, isLit := b.Right.(*planast.Literal)
	if !ok || !isLit || lit.Type != planast.TInteger || ref.Table != "" {
		return "", 0
	}
	for _, it := range p.Select {
		w, ok := it.Expr.(*planast.Window)
		if !ok || it.Alias != ref.Column || len(w.PartitionBy) > 0 {
			continue
		}
		if name := strings.ToUpper(w.Name); name == "RANK" || name == "DENSE_RANK" {
			k := lit.Int
			if b.Op == planast.OpLt {
				k--
			}
			return name, k
		}
	}
	return "", 0
}
