package validate

import (
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// Columns whose type has no ordering or equality (PostgreSQL json, xml,
// geometric types: ColumnInfo.Unordered) may be selected, but sorting,
// grouping, de-duplicating or comparing them fails in the database ("could
// not identify an ordering operator", "operator does not exist: json =
// json"). The validator refuses those uses with a hint instead, so the host
// hears of it before any SQL runs. The mark follows the column through
// derived tables and CTEs (validate.go sets it on their output columns),
// and every query is checked: CTEs, derived tables, set operations and the
// subqueries inside expressions (in, exists, scalar).

const unorderedHint = `cast it to text first: {"kind": "cast", "expr": <the column>, "type": "text"}`

// unorderedExpr reports whether e's value has a type without an ordering:
// such a column, or a CASE, COALESCE or NULLIF that may return one.
func unorderedExpr(e Expr) bool {
	switch x := e.(type) {
	case *Column:
		return x.Unordered
	case *Case:
		for _, w := range x.Whens {
			if unorderedExpr(w.Then) {
				return true
			}
		}
		return unorderedExpr(x.Else)
	case *Func:
		if strings.EqualFold(x.Name, "COALESCE") || strings.EqualFold(x.Name, "NULLIF") {
			for _, a := range x.Args {
				if unorderedExpr(a) {
					return true
				}
			}
		}
	}
	return false
}

// unorderedIssues checks q and every query inside it.
func (v *validator) unorderedIssues(q *Query, path string) {
	if q == nil {
		return
	}
	bad := func(e Expr, p, use string) {
		if unorderedExpr(e) {
			v.addHint(CodeType, p, unorderedHint,
				"%s has a type without an ordering (json, xml or a geometric type): it cannot be used in %s", describeUnordered(e), use)
		}
	}
	for i, o := range q.OrderBy {
		bad(o.Expr, join(idx(join(path, "order_by"), i), "expr"), "order_by")
	}
	for i, g := range q.GroupBy {
		bad(g, idx(join(path, "group_by"), i), "group_by")
	}
	dedupe := q.Distinct
	for _, s := range q.SetOps {
		dedupe = dedupe || s.Op != UnionAll
	}
	if dedupe {
		const use = "distinct, union, intersect or except (they compare rows)"
		for i, it := range q.Select {
			bad(it.Expr, join(idx(join(path, "select"), i), "expr"), use)
		}
		for k, s := range q.SetOps {
			if s.Query == nil {
				continue
			}
			for i, it := range s.Query.Select {
				bad(it.Expr, join(idx(join(idx(join(path, "set_ops"), k), "query.select"), i), "expr"), use)
			}
		}
	}
	ex := func(e Expr, p string) { v.unorderedExprIssues(e, p, bad) }
	for i, it := range q.Select {
		ex(it.Expr, join(idx(join(path, "select"), i), "expr"))
	}
	for i, j := range q.Joins {
		ex(j.Condition, join(idx(join(path, "joins"), i), "condition"))
	}
	ex(q.Where, join(path, "where"))
	for i, g := range q.GroupBy {
		ex(g, idx(join(path, "group_by"), i))
	}
	ex(q.Having, join(path, "having"))
	ex(q.Qualify, join(path, "qualify"))
	for i, o := range q.OrderBy {
		ex(o.Expr, join(idx(join(path, "order_by"), i), "expr"))
	}
	for i, c := range q.With {
		v.unorderedIssues(c.Query, join(idx(join(path, "with"), i), "query"))
	}
	for i, f := range q.From {
		v.unorderedIssues(f.Subquery, join(idx(join(path, "from"), i), "subquery"))
	}
	for i, s := range q.SetOps {
		v.unorderedIssues(s.Query, join(idx(join(path, "set_ops"), i), "query"))
	}
}

// unorderedExprIssues refuses comparisons, IN, BETWEEN, MIN/MAX, DISTINCT
// aggregates and window partitions or orders on a value without an
// ordering inside e, and checks the queries e holds.
func (v *validator) unorderedExprIssues(e Expr, path string, bad func(Expr, string, string)) {
	walk := func(e Expr, p string) { v.unorderedExprIssues(e, p, bad) }
	switch x := e.(type) {
	case nil, *Column, *Literal, *MetricRef, *FilterRef:
	case *Binary:
		switch x.Op {
		case "=", "!=", "<", "<=", ">", ">=":
			bad(x.Left, join(path, "left"), "a comparison ("+x.Op+")")
			bad(x.Right, join(path, "right"), "a comparison ("+x.Op+")")
		}
		walk(x.Left, join(path, "left"))
		walk(x.Right, join(path, "right"))
	case *Unary:
		walk(x.Expr, join(path, "expr"))
	case *In:
		bad(x.Expr, join(path, "expr"), "in (it compares values)")
		walk(x.Expr, join(path, "expr"))
		for i, l := range x.List {
			bad(l, idx(join(path, "list"), i), "in (it compares values)")
			walk(l, idx(join(path, "list"), i))
		}
		if x.Subquery != nil {
			for i, it := range x.Subquery.Select {
				bad(it.Expr, join(idx(join(path, "subquery.select"), i), "expr"), "in (it compares values)")
			}
			v.unorderedIssues(x.Subquery, join(path, "subquery"))
		}
	case *Exists:
		v.unorderedIssues(x.Subquery, join(path, "subquery"))
	case *Subquery:
		v.unorderedIssues(x.Query, join(path, "query"))
	case *Between:
		bad(x.Expr, join(path, "expr"), "between")
		walk(x.Expr, join(path, "expr"))
		walk(x.Low, join(path, "low"))
		walk(x.High, join(path, "high"))
	case *Like:
		walk(x.Expr, join(path, "expr"))
		walk(x.Pattern, join(path, "pattern"))
	case *IsNull:
		walk(x.Expr, join(path, "expr"))
	case *Case:
		walk(x.Operand, join(path, "operand"))
		if x.Operand != nil {
			bad(x.Operand, join(path, "operand"), "a case operand (it compares values)")
		}
		for i, w := range x.Whens {
			walk(w.When, join(idx(join(path, "whens"), i), "when"))
			walk(w.Then, join(idx(join(path, "whens"), i), "then"))
		}
		walk(x.Else, join(path, "else"))
	case *Cast:
		walk(x.Expr, join(path, "expr"))
	case *Func:
		ordering := x.Distinct || strings.EqualFold(x.Name, "MIN") || strings.EqualFold(x.Name, "MAX")
		for i, a := range x.Args {
			p := idx(join(path, "args"), i)
			if ordering {
				bad(a, p, strings.ToUpper(x.Name)+map[bool]string{true: "(distinct …)", false: ""}[x.Distinct])
			}
			walk(a, p)
		}
	case *Window:
		for i, a := range x.Args {
			walk(a, idx(join(path, "args"), i))
		}
		for i, p := range x.PartitionBy {
			bad(p, idx(join(path, "partition_by"), i), "a window's partition_by")
			walk(p, idx(join(path, "partition_by"), i))
		}
		for i, o := range x.OrderBy {
			bad(o.Expr, join(idx(join(path, "order_by"), i), "expr"), "a window's order_by")
			walk(o.Expr, join(idx(join(path, "order_by"), i), "expr"))
		}
	}
}

// describeUnordered names the value in an issue: table.column for a
// column, else the expression's kind.
func describeUnordered(e Expr) string {
	if c, ok := e.(*Column); ok {
		return c.Table + "." + c.Column
	}
	return "this " + e.Kind()
}
