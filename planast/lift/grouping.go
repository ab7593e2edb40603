package lift

import (
	"github.com/nl2sql/nl2sql/planast"
)

// grouping deals with SQLite's bare columns: a column of an aggregate
// query that is neither grouped nor inside an aggregate. SQLite takes its
// value from an arbitrary row of the group (from the row holding the
// extreme value when the query has one MIN or MAX), which the plan cannot
// say. Where the value is determined all the same — the column's table
// has its primary key grouped, directly or through an equality of an inner
// join or of WHERE with a grouped column — the key is added to group_by
// (the groups stay the same, and the validator accepts the dependent
// column); otherwise the query is refused.
func (l *lifter) grouping(q *planast.Query, sc *scope) {
	var exprs []planast.Expr
	for _, it := range q.Select {
		exprs = append(exprs, it.Expr)
	}
	if q.Having != nil {
		exprs = append(exprs, q.Having)
	}
	for _, o := range q.OrderBy {
		exprs = append(exprs, o.Expr)
	}
	agg := len(q.GroupBy) > 0
	minMax := false
	for _, e := range exprs {
		planast.Inspect(e, func(n planast.Node) bool {
			switch x := n.(type) {
			case *planast.Query:
				return false
			case *planast.Func:
				if planast.IsAggregate(x) {
					agg = true
					minMax = minMax || x.Name == "MIN" || x.Name == "MAX"
				}
			}
			return true
		})
	}
	if !agg {
		return
	}
	own := map[string]bool{}
	for _, s := range sc.sources {
		own[s.alias] = true
	}
	grouped := map[string]bool{}
	for _, g := range q.GroupBy {
		grouped[planast.Key(g)] = true
	}
	var bare []*planast.Column
	for _, e := range exprs {
		planast.Inspect(e, func(n planast.Node) bool {
			switch x := n.(type) {
			case *planast.Query:
				return false
			case *planast.Func:
				if planast.IsAggregate(x) {
					return false
				}
			case *planast.Window:
				return true
			case *planast.Column:
				if own[x.Table] && !grouped[planast.Key(x)] {
					bare = append(bare, x)
				}
				return false
			}
			if x, ok := n.(planast.Expr); ok && grouped[planast.Key(x)] {
				return false
			}
			return true
		})
	}
	if len(bare) == 0 {
		return
	}
	eq := l.equalities(q)
	for _, c := range bare {
		if !l.groupKey(q, c, grouped, eq) {
			if minMax {
				l.unsupported(-1, "a column neither grouped nor aggregated next to MIN/MAX (%s.%s; SQLite takes it from the row with the extreme value)", c.Table, c.Column)
			}
			l.unsupported(-1, "a column neither grouped nor aggregated (%s.%s; SQLite takes it from an arbitrary row of the group)", c.Table, c.Column)
		}
	}
}

// groupKey makes c's table's primary key grouped, when each key column is
// grouped or determined by a grouped column; it reports whether it could.
func (l *lifter) groupKey(q *planast.Query, c *planast.Column, grouped map[string]bool, det determines) bool {
	src := l.byAlias[c.Table]
	if src == nil || src.table == nil || len(src.table.PrimaryKey) == 0 {
		return false
	}
	var from []string
	for _, g := range q.GroupBy {
		if gc, ok := g.(*planast.Column); ok {
			from = append(from, gc.Table+"."+gc.Column)
		}
	}
	reach := det.closure(from)
	var add []planast.Expr
	for _, pk := range src.table.PrimaryKey {
		k := &planast.Column{Table: c.Table, Column: pk}
		if grouped[planast.Key(k)] {
			continue
		}
		if !reach[c.Table+"."+pk] {
			return false
		}
		add = append(add, k)
	}
	for _, k := range add {
		q.GroupBy = append(q.GroupBy, k)
		grouped[planast.Key(k)] = true
	}
	return true
}

// determines maps a column ("alias.column") to the columns whose value it
// determines on every row of the query.
type determines map[string][]string

// closure returns every column the columns from determine, from included.
func (d determines) closure(from []string) map[string]bool {
	seen := map[string]bool{}
	stack := append([]string(nil), from...)
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[k] {
			continue
		}
		seen[k] = true
		stack = append(stack, d[k]...)
	}
	return seen
}

// equalities collects what determines what on every row of q: inner join
// key pairs, and the column = column (or column = CAST(column)) conjuncts
// of inner join conditions and of WHERE.
func (l *lifter) equalities(q *planast.Query) determines {
	d := determines{}
	key := func(c *planast.Column) string { return c.Table + "." + c.Column }
	addConj := func(e planast.Expr) {
		for _, c := range splitAnd(e) {
			b, ok := c.(*planast.Binary)
			if !ok || b.Op != planast.OpEq {
				continue
			}
			x, xcast := castColumn(b.Left)
			y, ycast := castColumn(b.Right)
			if x == nil || y == nil {
				continue
			}
			if !xcast {
				d[key(y)] = append(d[key(y)], key(x))
			}
			if !ycast {
				d[key(x)] = append(d[key(x)], key(y))
			}
		}
	}
	for _, j := range q.Joins {
		if j.Type != planast.JoinInner {
			continue
		}
		for _, p := range j.On {
			a, b := j.Left+"."+p.LeftColumn, j.Right+"."+p.RightColumn
			d[a] = append(d[a], b)
			d[b] = append(d[b], a)
		}
		addConj(j.Condition)
	}
	addConj(q.Where)
	return d
}

// castColumn returns the qualified column e is, or casts; cast reports a
// cast (the column then determines e, not the other way round).
func castColumn(e planast.Expr) (c *planast.Column, cast bool) {
	if x, ok := e.(*planast.Cast); ok {
		c, _ := castColumn(x.Expr)
		return c, true
	}
	if x, ok := e.(*planast.Column); ok && x.Table != "" {
		return x, false
	}
	return nil, false
}
