package planast

// Node is a *Query or an Expr: what Inspect visits.
type Node interface{}

// Inspect traverses the plan depth-first in JSON field order, calling f for
// every *Query and Expr. If f returns false, Inspect skips that node's
// children. Nil expressions are not visited.
func Inspect(n Node, f func(Node) bool) {
	switch n := n.(type) {
	case nil:
		return
	case *Query:
		if n == nil || !f(n) {
			return
		}
		for _, c := range n.With {
			Inspect(c.Query, f)
		}
		for _, s := range n.Select {
			inspectExpr(s.Expr, f)
		}
		for _, fr := range n.From {
			if fr.Subquery != nil {
				Inspect(fr.Subquery, f)
			}
		}
		for _, j := range n.Joins {
			inspectExpr(j.Condition, f)
		}
		inspectExpr(n.Where, f)
		for _, g := range n.GroupBy {
			inspectExpr(g, f)
		}
		inspectExpr(n.Having, f)
		inspectExpr(n.Qualify, f)
		for _, s := range n.SetOps {
			Inspect(s.Query, f)
		}
		for _, o := range n.OrderBy {
			inspectExpr(o.Expr, f)
		}
	case Expr:
		inspectExpr(n, f)
	}
}

func inspectExpr(e Expr, f func(Node) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Column, *Literal, *MetricRef, *FilterRef:
	case *Binary:
		inspectExpr(e.Left, f)
		inspectExpr(e.Right, f)
	case *Unary:
		inspectExpr(e.Expr, f)
	case *In:
		inspectExpr(e.Expr, f)
		for _, x := range e.List {
			inspectExpr(x, f)
		}
		if e.Subquery != nil {
			Inspect(e.Subquery, f)
		}
	case *Exists:
		Inspect(e.Subquery, f)
	case *Subquery:
		Inspect(e.Query, f)
	case *Between:
		inspectExpr(e.Expr, f)
		inspectExpr(e.Low, f)
		inspectExpr(e.High, f)
	case *Like:
		inspectExpr(e.Expr, f)
		inspectExpr(e.Pattern, f)
	case *IsNull:
		inspectExpr(e.Expr, f)
	case *Case:
		inspectExpr(e.Operand, f)
		for _, w := range e.Whens {
			inspectExpr(w.When, f)
			inspectExpr(w.Then, f)
		}
		inspectExpr(e.Else, f)
	case *Cast:
		inspectExpr(e.Expr, f)
	case *Func:
		for _, a := range e.Args {
			inspectExpr(a, f)
		}
	case *Window:
		for _, a := range e.Args {
			inspectExpr(a, f)
		}
		for _, p := range e.PartitionBy {
			inspectExpr(p, f)
		}
		for _, o := range e.OrderBy {
			inspectExpr(o.Expr, f)
		}
	default:
		panic("planast: Inspect: unhandled expression type") // the node set is closed; a test covers every kind
	}
}

// MapQuery replaces every expression of q (and of its nested queries) by
// f's result, children before parents, in place. Like Inspect it covers
// every node type; f returns its argument to keep a node.
func MapQuery(q *Query, f func(Expr) Expr) {
	if q == nil {
		return
	}
	for i := range q.With {
		MapQuery(q.With[i].Query, f)
	}
	for i := range q.Select {
		q.Select[i].Expr = MapExpr(q.Select[i].Expr, f)
	}
	for i := range q.From {
		MapQuery(q.From[i].Subquery, f)
	}
	for i := range q.Joins {
		q.Joins[i].Condition = MapExpr(q.Joins[i].Condition, f)
	}
	q.Where = MapExpr(q.Where, f)
	for i := range q.GroupBy {
		q.GroupBy[i] = MapExpr(q.GroupBy[i], f)
	}
	q.Having = MapExpr(q.Having, f)
	q.Qualify = MapExpr(q.Qualify, f)
	for i := range q.SetOps {
		MapQuery(q.SetOps[i].Query, f)
	}
	for i := range q.OrderBy {
		q.OrderBy[i].Expr = MapExpr(q.OrderBy[i].Expr, f)
	}
}

// MapExpr replaces e and every expression below it (nested queries
// included) by f's result, children before parents, as MapQuery does.
func MapExpr(e Expr, f func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	switch e := e.(type) {
	case *Column, *Literal, *MetricRef, *FilterRef:
	case *Binary:
		e.Left, e.Right = MapExpr(e.Left, f), MapExpr(e.Right, f)
	case *Unary:
		e.Expr = MapExpr(e.Expr, f)
	case *In:
		e.Expr = MapExpr(e.Expr, f)
		for i := range e.List {
			e.List[i] = MapExpr(e.List[i], f)
		}
		MapQuery(e.Subquery, f)
	case *Exists:
		MapQuery(e.Subquery, f)
	case *Subquery:
		MapQuery(e.Query, f)
	case *Between:
		e.Expr, e.Low, e.High = MapExpr(e.Expr, f), MapExpr(e.Low, f), MapExpr(e.High, f)
	case *Like:
		e.Expr, e.Pattern = MapExpr(e.Expr, f), MapExpr(e.Pattern, f)
	case *IsNull:
		e.Expr = MapExpr(e.Expr, f)
	case *Case:
		e.Operand = MapExpr(e.Operand, f)
		for i := range e.Whens {
			e.Whens[i].When, e.Whens[i].Then = MapExpr(e.Whens[i].When, f), MapExpr(e.Whens[i].Then, f)
		}
		e.Else = MapExpr(e.Else, f)
	case *Cast:
		e.Expr = MapExpr(e.Expr, f)
	case *Func:
		for i := range e.Args {
			e.Args[i] = MapExpr(e.Args[i], f)
		}
	case *Window:
		for i := range e.Args {
			e.Args[i] = MapExpr(e.Args[i], f)
		}
		for i := range e.PartitionBy {
			e.PartitionBy[i] = MapExpr(e.PartitionBy[i], f)
		}
		for i := range e.OrderBy {
			e.OrderBy[i].Expr = MapExpr(e.OrderBy[i].Expr, f)
		}
	default:
		panic("planast: mapExpr: unhandled expression type") // the node set is closed
	}
	return f(e)
}

// OwnExprs are the expression roots of q itself, in a fixed order: where,
// having, qualify, the select items, the join conditions, group_by and
// order_by. Its CTEs, derived tables and set operations are queries of
// their own; the subqueries inside these expressions are reached by
// inspecting them. Absent parts are nil.
func (q *Query) OwnExprs() []Expr {
	out := []Expr{q.Where, q.Having, q.Qualify}
	for _, s := range q.Select {
		out = append(out, s.Expr)
	}
	for _, j := range q.Joins {
		out = append(out, j.Condition)
	}
	out = append(out, q.GroupBy...)
	for _, o := range q.OrderBy {
		out = append(out, o.Expr)
	}
	return out
}
