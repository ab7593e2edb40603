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
