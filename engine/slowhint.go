package engine

import (
	"errors"

	"github.com/nl2sql/nl2sql/planast"
)

// slowPlan is err with, when it says the query itself ran past its time
// limit (no wait for a lock, which may pass), the hint of what in the
// plan is slow before the generic one.
func slowPlan(err error, plan *planast.Query) error {
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeTimeout || ee.Retryable {
		return err
	}
	h := correlatedHint(plan)
	if h == "" {
		return err
	}
	c := *ee
	c.Hint = h + "; else " + ee.Hint
	return &c
}

// correlatedHint is what a plan that ran past its time limit is told when
// it holds a subquery that refers to a column of the query around it:
// the database may run such a subquery once per outer row, reading its
// table each time where no index holds the column it matches on (an
// EXISTS over 13,000 orders by their order_ref timed out at 30 s on
// SQLite, where the same count grouped once ran at once). The generic
// timeout hint says to narrow the plan, which does not help.
func correlatedHint(plan *planast.Query) string {
	kind, col := correlated(plan)
	if kind == "" {
		return ""
	}
	return "the plan's " + kind + " refers to " + col + " of the query around it, so the database may run it once for every row there, reading its table each time: compute it once instead, as a derived table ({\"alias\", \"subquery\"} in from) grouped by the key it matched on (COUNT, MIN, MAX per key) and joined on that key, or as an IN over a subquery that refers to nothing outside it"
}

// correlated is the first subquery of plan (an EXISTS, an IN over a
// subquery or a scalar subquery) that names a source alias it does not
// define itself, with that column as alias.column; "" for none.
func correlated(plan *planast.Query) (kind, col string) {
	planast.Inspect(plan, func(n planast.Node) bool {
		if kind != "" {
			return false
		}
		var sub *planast.Query
		what := ""
		switch x := n.(type) {
		case *planast.Exists:
			sub, what = x.Subquery, "EXISTS subquery"
		case *planast.In:
			sub, what = x.Subquery, "IN subquery"
		case *planast.Subquery:
			sub, what = x.Query, "scalar subquery"
		}
		if sub == nil {
			return true
		}
		if c := outerColumn(sub); c != "" {
			kind, col = what, c
			return false
		}
		return true
	})
	return kind, col
}

// outerColumn is a column of sub, alias.column, whose alias no source or
// CTE inside sub defines; "" for none.
func outerColumn(sub *planast.Query) string {
	inner := map[string]bool{}
	planast.Inspect(sub, func(n planast.Node) bool {
		if q, ok := n.(*planast.Query); ok {
			for _, f := range q.From {
				inner[f.Alias] = true
			}
			for _, c := range q.With {
				inner[c.Name] = true
			}
		}
		return true
	})
	out := ""
	planast.Inspect(sub, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok && out == "" && c.Table != "" && !inner[c.Table] {
			out = c.Table + "." + c.Column
		}
		return out == ""
	})
	return out
}
