package render

import "github.com/nl2sql/nl2sql/planast"

// SQLite runs a correlated [NOT] EXISTS once per outer row and, unless an
// index covers the inner column, scans the inner table each time:
// "customers with no order" over 60,000 × 40,000 unindexed rows ran past
// a minute. When the subquery's only tie to the outer query is one
// equality, the same test is an uncorrelated IN, whose rows SQLite reads
// once into a temporary index: 0.07 s. PostgreSQL and DuckDB plan EXISTS
// as a semi- or anti-join themselves.
//
// The IN keeps EXISTS's two-valued meaning: the inner keys exclude NULL,
// and an outer key that is NULL matches nothing (EXISTS false, NOT
// EXISTS true), so
//
//	EXISTS (SELECT … FROM b WHERE b.k = a.k AND p)
//	  → (a.k IS NOT NULL AND a.k IN (SELECT b.k FROM b WHERE p AND b.k IS NOT NULL))
//	NOT EXISTS (…)
//	  → (a.k IS NULL OR a.k NOT IN (SELECT b.k FROM b WHERE p AND b.k IS NOT NULL))

// semiJoin renders e as above, or reports false when its subquery is not
// of that shape: it must only filter (no grouping, window, limit, set
// operation, CTE or nested subquery), and its where must hold exactly one
// conjunct naming a column of an enclosing query: an equality (not a
// temporal one, which compares normalised text) of an expression of the
// enclosing query's columns with one of its own.
func (w *writer) semiJoin(e *planast.Exists) (string, bool) {
	q := e.Subquery
	if q == nil || len(q.With) > 0 || len(q.GroupBy) > 0 || q.Having != nil || q.Qualify != nil || len(q.SetOps) > 0 ||
		q.Limit != nil || q.Offset != nil || q.Where == nil {
		return "", false
	}
	inner := map[string]bool{}
	for _, f := range q.From {
		if f.Subquery != nil {
			return "", false
		}
		inner[f.Alias] = true
	}
	if nested(q) {
		return "", false
	}
	for _, it := range q.Select {
		if planast.ContainsAggregate(it.Expr) { // one row however many match: always EXISTS
			return "", false
		}
	}
	for _, j := range q.Joins {
		if j.Condition != nil && refs(j.Condition, inner) != innerOnly {
			return "", false
		}
	}
	var outer, key planast.Expr
	var rest []planast.Expr
	for _, c := range conjuncts(q.Where) {
		switch refs(c, inner) {
		case innerOnly:
			rest = append(rest, c)
			continue
		case mixed:
			b, ok := c.(*planast.Binary)
			if !ok || b.Op != planast.OpEq || b.Temporal != "" || outer != nil {
				return "", false
			}
			switch {
			case refs(b.Left, inner) == outerOnly && refs(b.Right, inner) == innerOnly:
				outer, key = b.Left, b.Right
			case refs(b.Right, inner) == outerOnly && refs(b.Left, inner) == innerOnly:
				outer, key = b.Right, b.Left
			default:
				return "", false
			}
			continue
		}
		return "", false // a conjunct naming only the enclosing query's columns
	}
	if outer == nil {
		return "", false
	}
	keys := *q
	keys.Select = []planast.SelectItem{{Expr: key, Alias: "key"}}
	keys.Distinct = false
	keys.OrderBy = nil
	keys.Where = andAll(append(rest, &planast.IsNull{Expr: key, Negated: true}))
	o := w.exprS(outer)
	if e.Negated {
		return "(" + o + " IS NULL OR " + o + " NOT IN " + w.subquery(&keys) + ")", true
	}
	return "(" + o + " IS NOT NULL AND " + o + " IN " + w.subquery(&keys) + ")", true
}

// scope is which queries' columns an expression names.
type scope int

const (
	innerOnly scope = iota // only the subquery's own (or no column)
	outerOnly              // only enclosing queries'
	mixed                  // both
)

// refs says whose columns e names, inner being the subquery's aliases. A
// column without a table (an output alias) counts as the enclosing
// query's, so that nothing unresolved is moved.
func refs(e planast.Expr, inner map[string]bool) scope {
	in, out := false, false
	planast.Inspect(e, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok {
			if c.Table != "" && inner[c.Table] {
				in = true
			} else {
				out = true
			}
		}
		return true
	})
	switch {
	case in && out:
		return mixed
	case in:
		return innerOnly
	case out:
		return outerOnly
	}
	return innerOnly // a constant filters the subquery's rows alone
}

// nested reports a query inside q (a subquery anywhere in its clauses),
// a window, or a semantic layer's reference (whose columns are not yet
// written out).
func nested(q *planast.Query) bool {
	found := false
	planast.Inspect(q, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Query:
			found = x != q
		case *planast.Window, *planast.MetricRef, *planast.FilterRef:
			found = true
		}
		return !found
	})
	return found
}

// conjuncts splits e on AND.
func conjuncts(e planast.Expr) []planast.Expr {
	if b, ok := e.(*planast.Binary); ok && b.Op == planast.OpAnd {
		return append(conjuncts(b.Left), conjuncts(b.Right)...)
	}
	return []planast.Expr{e}
}

// andAll joins es with AND.
func andAll(es []planast.Expr) planast.Expr {
	out := es[0]
	for _, e := range es[1:] {
		out = &planast.Binary{Op: planast.OpAnd, Left: out, Right: e}
	}
	return out
}
