package validate

import (
	. "github.com/nl2sql/nl2sql/planast"
)

// Grouping: which queries aggregate, which columns an aggregate query may
// use outside aggregates, and the functional dependency on a grouped key.

// resolvedIn records the scope a column reference resolved to, so that the
// grouping check can tell a correlated reference to a grouped query.
func (v *validator) resolvedIn(c *Column, s *scope) {
	if v.resolved == nil {
		v.resolved = map[*Column]*scope{}
	}
	v.resolved[c] = s
}

// grouping checks that, in an aggregate query, every column outside an
// aggregate is grouped (or functionally dependent on a grouped primary key).
func (v *validator) grouping(q *Query, path string, sc *scope) {
	if q.Having != nil && !groups(q) {
		// SQLite calls any other HAVING "a HAVING clause on a non-aggregate query"
		v.add(CodeGrouping, join(path, "having"), "having needs group_by or an aggregate in select; filter rows with where")
		return
	}
	if len(q.GroupBy) == 0 && !hasAggregate(q) {
		return
	}
	for i, it := range q.Select {
		v.groupedRef(it.Expr, join(idx(join(path, "select"), i), "expr"), q, sc)
	}
	if q.Having != nil {
		v.groupedRef(q.Having, join(path, "having"), q, sc)
	}
}

func (v *validator) groupedRef(e Expr, path string, q *Query, sc *scope) {
	var bad *Column
	Inspect(e, func(n Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *Query:
			// a subquery is its own scope, but its correlated references
			// to this query's sources must be grouped too
			if bad == nil {
				bad = v.correlatedUngrouped(n, q, sc)
			}
			return false
		case *Func:
			if spec, ok := LookupFunc(n.Name); ok && spec.Kind == Aggregate {
				return false
			}
		case *Window:
			if spec, ok := LookupFunc(n.Name); ok && spec.Kind == Aggregate {
				// an aggregate window over grouped rows: its args must be grouped
				return true
			}
		}
		if x, ok := n.(Expr); ok && isGroupExpr(x, q.GroupBy) {
			return false
		}
		if c, ok := n.(*Column); ok {
			if v.resolved[c] != sc || v.dependent(c, q, sc) {
				return false
			}
			bad = c
			return false
		}
		return true
	})
	if bad != nil {
		v.add(CodeGrouping, path, "%s.%s must appear in group_by or be inside an aggregate", bad.Table, bad.Column)
	}
}

// correlatedUngrouped returns a column of sub that refers to grouped query
// q's sources (scope sc) without being grouped, or nil. Aggregates inside
// sub are not entered: their arguments may aggregate over q's rows.
func (v *validator) correlatedUngrouped(sub *Query, q *Query, sc *scope) *Column {
	var bad *Column
	Inspect(sub, func(n Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *Func:
			if spec, ok := LookupFunc(n.Name); ok && spec.Kind == Aggregate {
				return false
			}
		case *Column:
			if v.resolved[n] == sc && !isGroupExpr(n, q.GroupBy) && !v.dependent(n, q, sc) {
				bad = n
			}
			return false
		}
		if x, ok := n.(Expr); ok && isGroupExpr(x, q.GroupBy) {
			return false
		}
		return true
	})
	return bad
}

func isGroupExpr(e Expr, groupBy []Expr) bool {
	if len(groupBy) == 0 {
		return false
	}
	k := Key(e)
	for _, g := range groupBy {
		if Key(g) == k {
			return true
		}
	}
	return false
}

// dependent reports whether c is functionally dependent on q's grouped
// primary key, and if so adds c to q's group_by: grouping by it too changes
// no group, and DuckDB (unlike PostgreSQL and SQLite) requires it.
func (v *validator) dependent(c *Column, q *Query, sc *scope) bool {
	if !dependsOnGroupedKey(c, q.GroupBy, sc) {
		return false
	}
	g := &Column{Table: c.Table, Column: c.Column, Money: c.Money, AsText: c.AsText, Scale: c.Scale, ReadAs: c.ReadAs}
	v.resolvedIn(g, sc)
	q.GroupBy = append(q.GroupBy, g)
	return true
}

// dependsOnGroupedKey reports whether c's table has its whole primary key in
// group_by, which makes c functionally dependent (as PostgreSQL accepts).
func dependsOnGroupedKey(c *Column, groupBy []Expr, sc *scope) bool {
	src, ok := sc.find(c.Table)
	if !ok || src.table == nil || len(src.table.PrimaryKey) == 0 {
		return false
	}
	for _, pk := range src.table.PrimaryKey {
		if !isGroupExpr(&Column{Table: c.Table, Column: pk}, groupBy) {
			return false
		}
	}
	return true
}

// groups reports whether q is an aggregate query on every engine: it has a
// group_by or an aggregate in select (an aggregate only in having or order_by
// is not enough for SQLite).
func groups(q *Query) bool {
	if len(q.GroupBy) > 0 {
		return true
	}
	found := false
	for _, it := range q.Select {
		Inspect(it.Expr, func(n Node) bool {
			switch n := n.(type) {
			case *Query, *Window: // SQLite does not count aggregates under OVER
				return false
			case *Func:
				if spec, ok := LookupFunc(n.Name); ok && spec.Kind == Aggregate {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// hasAggregate reports whether q is an aggregate query: an aggregate call in
// select, having or order_by, including inside a window's arguments (SUM(x)
// OVER ...'s own aggregate does not count), but not inside subqueries.
func hasAggregate(q *Query) bool {
	found := false
	check := func(e Expr) {
		Inspect(e, func(n Node) bool {
			switch n := n.(type) {
			case *Query:
				return false
			case *Func:
				if spec, ok := LookupFunc(n.Name); ok && spec.Kind == Aggregate {
					found = true
				}
			}
			return !found
		})
	}
	for _, it := range q.Select {
		check(it.Expr)
	}
	if q.Having != nil {
		check(q.Having)
	}
	for _, o := range q.OrderBy {
		check(o.Expr)
	}
	return found
}

func inSelect(e Expr, sel []SelectItem) bool {
	b := Key(e)
	for _, it := range sel {
		if b == Key(it.Expr) {
			return true
		}
	}
	return false
}

// outerAggregate reports whether aggregate f's arguments name columns and
// all of them belong to scopes outside sc.
func (v *validator) outerAggregate(f *Func, sc *scope) bool {
	cols, local := 0, 0
	for _, a := range f.Args {
		Inspect(a, func(n Node) bool {
			switch n := n.(type) {
			case *Query:
				return false
			case *Column:
				cols++
				if v.resolved[n] == sc {
					local++
				}
			}
			return true
		})
	}
	return cols > 0 && local == 0
}
