package warnings

import "github.com/nl2sql/nl2sql/planast"

// queries calls f with plan and each query inside it (subqueries, CTEs,
// set operations' branches): a column a warning reads belongs to one of
// its own query's sources (emptyrange.FromColumn), so each query is
// looked at with its own.
func queries(plan *planast.Query, f func(q *planast.Query)) {
	planast.Inspect(plan, func(n planast.Node) bool {
		if q, ok := n.(*planast.Query); ok {
			f(q)
		}
		return true
	})
}

// own calls f with each node of q outside its subqueries, which queries
// visits as queries of their own; f returns false to skip a node's
// children.
func own(q *planast.Query, f func(planast.Node) bool) {
	planast.Inspect(q, func(n planast.Node) bool {
		if sub, ok := n.(*planast.Query); ok && sub != q {
			return false
		}
		return f(n)
	})
}
