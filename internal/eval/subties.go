package eval

import (
	"context"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// maxTieShifts bounds the alternatives tried for one subquery.
const maxTieShifts = 32

// maxTieSubqueries bounds the subqueries tiesInSubqueries looks at.
const maxTieSubqueries = 4

// tiesInSubqueries is tiesExplain below the top level, so that a tie counts
// the same wherever its ORDER BY is: for each subquery or CTE with ORDER BY
// and LIMIT whose selected rows [OFFSET, OFFSET+LIMIT) all lie in one run of
// rows with equal keys, any other window of LIMIT rows inside that run is
// an equally valid choice; the plan is run with the subquery's OFFSET moved
// to each of them (at most maxTieShifts), and the gold rows pass when they
// match one of those results (with the top level's own ties allowed as in
// tiesExplain). A subquery that does not stand alone (correlated) is not
// tried. Windows that straddle the end of a run are not tried either: the
// check may miss a valid answer, never accept a wrong one.
func tiesInSubqueries(ctx context.Context, opts Options, dialect render.Dialect, d *database, plan *planast.Query, gold *table, ordered bool) bool {
	subs := limitedSubqueries(plan)
	for i, sq := range subs {
		if i >= maxTieSubqueries {
			break
		}
		k, ok := keyedRun(ctx, opts, dialect, d, sq)
		if !ok || k.limit == nil || *k.limit <= 0 {
			continue
		}
		n := int(*k.limit)
		lo, hi, ok := tieRun(k, k.offset, n)
		if !ok || hi-lo <= n {
			continue
		}
		tries := 0
		for start := lo; start+n <= hi && tries < maxTieShifts; start++ {
			if start == k.offset {
				continue
			}
			tries++
			cp, err := planast.Decode(plan.Canonical(), planast.Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
			if err != nil {
				return false
			}
			off := int64(start)
			limitedSubqueries(cp)[i].Offset = &off
			got, ok := runPlan(ctx, opts, dialect, d, cp)
			if !ok {
				continue
			}
			if compareTables(gold, got, ordered) == "" {
				return true
			}
			if (ordered || cp.Limit != nil) && tiesExplain(ctx, opts, dialect, d, cp, gold) {
				return true
			}
		}
	}
	return false
}

// limitedSubqueries lists, in Inspect order, the queries below q's top
// level that have ORDER BY and LIMIT.
func limitedSubqueries(q *planast.Query) []*planast.Query {
	var out []*planast.Query
	planast.Inspect(q, func(n planast.Node) bool {
		if s, ok := n.(*planast.Query); ok && s != q && len(s.OrderBy) > 0 && s.Limit != nil {
			out = append(out, s)
		}
		return true
	})
	return out
}

// tieRun returns the run of equal keys [lo, hi) that holds all of the rows
// [offset, offset+n) of k's result, or false when they span several runs.
func tieRun(k keyed, offset, n int) (lo, hi int, ok bool) {
	f := canonRows(k.full.rows)
	if offset < 0 || offset+n > len(f) || n <= 0 {
		return 0, 0, false
	}
	same := func(a, b int) bool {
		for _, c := range k.keys {
			if !f[a][c].eq(f[b][c]) {
				return false
			}
		}
		return true
	}
	for i := offset + 1; i < offset+n; i++ {
		if !same(i, offset) {
			return 0, 0, false
		}
	}
	lo, hi = offset, offset+n
	for lo > 0 && same(lo-1, offset) {
		lo--
	}
	for hi < len(f) && same(hi, offset) {
		hi++
	}
	return lo, hi, true
}
