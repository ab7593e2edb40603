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

// A top-N plan (order_by with a limit) that returned exactly N rows may
// have cut rows that tie with the last one on every sort key: "the top 3
// patients by visits" drops the fourth with as many visits as the third,
// and the answer names three where four share the places. Nothing in the
// rows shows it. TieProbe is the same plan with with_ties set; run, it
// returns more than N rows exactly when the limit cut a tie, and
// TieWarning says how many and how to keep them.

// TieProbe returns plan with with_ties set, or nil when plan is no top-N
// whose tie could be cut: no limit, no order_by, with_ties already set,
// an offset or set operations (whose limit applies to the combined rows),
// or fewer rows returned than the limit.
func TieProbe(plan *planast.Query, returned int) *planast.Query {
	if plan == nil || plan.Limit == nil || *plan.Limit <= 0 || int64(returned) != *plan.Limit ||
		len(plan.OrderBy) == 0 || plan.WithTies || plan.Offset != nil || len(plan.SetOps) > 0 {
		return nil
	}
	b, err := planast.JSON(plan)
	if err != nil {
		return nil
	}
	probe, err := planast.Decode(b, planast.DefaultLimits)
	if err != nil {
		return nil
	}
	probe.WithTies = true
	return probe
}

// TieWarning is the warning of a tie probe that returned withTies rows for
// a plan whose limit kept limit rows; "" when none was cut.
func TieWarning(limit int64, withTies int) string {
	cut := int64(withTies) - limit
	if cut <= 0 {
		return ""
	}
	rows := fmt.Sprintf("%d more rows that tie", cut)
	if cut == 1 {
		rows = "1 more row that ties"
	}
	return fmt.Sprintf("the limit of %d cut %s with the last row kept on every order_by key; which of them were kept was settled by the tie-breakers after your keys (the other selected columns, ascending), not by the question: "+
		"add \"with_ties\": true to keep every row that ties with the last (%d rows), or add an order_by key that tells them apart",
		limit, rows, withTies)
}
