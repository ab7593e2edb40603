package planast

// Columns whose type has no ordering or equality (PostgreSQL json, xml,
// geometric types: ColumnInfo.Unordered) may be selected, but sorting,
// grouping or de-duplicating on them fails in the database ("could not
// identify an ordering operator"). The validator refuses those uses with a
// hint instead, so the host hears of it before any SQL runs.

// unorderedIssues checks q and every query inside it.
func (v *validator) unorderedIssues(q *Query, path string) {
	if q == nil {
		return
	}
	bad := func(e Expr, p, use string) {
		if c, ok := e.(*Column); ok && c.Unordered {
			v.addHint(CodeType, p, `cast it to text first: {"kind": "cast", "expr": <the column>, "type": "text"}`,
				"%s.%s has a type without an ordering (json, xml or a geometric type): it cannot be used in %s", c.Table, c.Column, use)
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
		for i, it := range q.Select {
			bad(it.Expr, join(idx(join(path, "select"), i), "expr"), "distinct, union, intersect or except (they compare rows)")
		}
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
