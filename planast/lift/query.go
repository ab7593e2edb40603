package lift

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// query lifts a SELECT statement with its WITH, set operations, ORDER BY
// and LIMIT. outer is the enclosing scope for a correlated subquery (nil for
// the root, derived tables and CTEs); env the CTEs visible. It returns the
// plan and its output columns.
func (l *lifter) query(s *pg.SelectStmt, outer *scope, env *cteEnv) (*planast.Query, []column) {
	if s.IntoClause != nil {
		l.unsupported(-1, "SELECT INTO")
	}
	if len(s.LockingClause) > 0 {
		l.unsupported(-1, "FOR UPDATE")
	}
	var with []planast.CTE
	if s.WithClause != nil {
		if s.WithClause.Recursive {
			l.unsupported(s.WithClause.Location, "WITH RECURSIVE")
		}
		env = &cteEnv{parent: env, defs: map[string]*cteDef{}}
		for _, n := range s.WithClause.Ctes {
			ce := n.GetCommonTableExpr()
			body := ce.GetCtequery().GetSelectStmt()
			if ce == nil || body == nil {
				l.unsupported(-1, "a WITH item that is not a SELECT")
			}
			if ce.Ctematerialized != pg.CTEMaterialize_CTEMaterializeDefault && ce.Ctematerialized != pg.CTEMaterialize_CTEMATERIALIZE_UNDEFINED {
				l.unsupported(ce.Location, "MATERIALIZED")
			}
			cq, cols := l.query(body, nil, env)
			cols = l.renameOutputs(cq, cols, ce.Aliascolnames, ce.Location)
			name := ce.Ctename
			if raw := l.src.IdentChain(int(ce.Location), 1); raw != nil {
				name = raw[0]
			}
			if env.defs[strings.ToLower(name)] != nil {
				l.fail(ce.Location, "WITH names %q twice", name)
			}
			env.defs[strings.ToLower(name)] = &cteDef{name: name, cols: cols}
			with = append(with, planast.CTE{Name: name, Query: cq})
		}
	}
	var q *planast.Query
	var cols []column
	var sc *scope
	if s.Op != pg.SetOperation_SETOP_NONE && s.Op != pg.SetOperation_SET_OPERATION_UNDEFINED {
		q, cols = l.compound(s, outer, env)
	} else {
		q, sc, cols = l.core(s, outer, env)
	}
	q.With = with
	l.orderBy(s.SortClause, q, sc, cols)
	if sc != nil {
		l.grouping(q, sc)
	}
	l.limit(s, q)
	l.outCols[q] = cols
	return q, cols
}

// renameOutputs applies a column alias list (WITH t(a, b) AS ..., or
// FROM (...) AS t(a, b)) to q's output columns.
func (l *lifter) renameOutputs(q *planast.Query, cols []column, names []*pg.Node, pos int32) []column {
	if len(names) == 0 {
		return cols
	}
	if len(names) > len(cols) {
		l.fail(pos, "%d column names for %d columns", len(names), len(cols))
	}
	for i, n := range names {
		name := n.GetString_().GetSval()
		q.Select[i].Alias = name
		cols[i].name = name
	}
	return cols
}

// compound lifts a chain of set operations. SQLite gives them equal
// precedence, left to right, so the branches are taken in the order they
// are written whatever tree PostgreSQL's grammar built (it binds INTERSECT
// tighter); for PostgreSQL a chain that is not left to right is refused.
func (l *lifter) compound(s *pg.SelectStmt, outer *scope, env *cteEnv) (*planast.Query, []column) {
	var branches []*pg.SelectStmt
	var ops []planast.SetOpKind
	var walk func(x *pg.SelectStmt, right bool)
	walk = func(x *pg.SelectStmt, right bool) {
		if x.Op == pg.SetOperation_SETOP_NONE || x.Op == pg.SetOperation_SET_OPERATION_UNDEFINED {
			branches = append(branches, x)
			return
		}
		if right && !l.sqlite() {
			l.unsupported(-1, "set operations grouped by INTERSECT precedence or parentheses")
		}
		if x != s && (len(x.SortClause) > 0 || x.LimitCount != nil || x.LimitOffset != nil || x.WithClause != nil) {
			l.unsupported(-1, "ORDER BY, LIMIT or WITH inside one branch of a set operation")
		}
		walk(x.Larg, false)
		ops = append(ops, setOpKind(x.Op, x.All))
		walk(x.Rarg, true)
	}
	walk(s, false)
	var q *planast.Query
	var cols []column
	for i, b := range branches {
		if len(b.SortClause) > 0 || b.LimitCount != nil || b.LimitOffset != nil || b.WithClause != nil {
			l.unsupported(-1, "ORDER BY, LIMIT or WITH inside one branch of a set operation")
		}
		bq, bsc, bcols := l.core(b, outer, env)
		l.grouping(bq, bsc)
		if i == 0 {
			q, cols = bq, bcols
			continue
		}
		if len(bcols) != len(cols) {
			l.fail(-1, "the branches of a set operation select %d and %d columns", len(cols), len(bcols))
		}
		for k := range cols {
			if cols[k].typ == planast.TypeUnknown {
				cols[k].typ = bcols[k].typ
			}
			cols[k].affinity = false
		}
		q.SetOps = append(q.SetOps, planast.SetOp{Op: ops[i-1], Query: bq})
	}
	return q, cols
}

func setOpKind(op pg.SetOperation, all bool) planast.SetOpKind {
	switch {
	case op == pg.SetOperation_SETOP_UNION && all:
		return planast.UnionAll
	case op == pg.SetOperation_SETOP_UNION:
		return planast.Union
	case op == pg.SetOperation_SETOP_INTERSECT && !all:
		return planast.Intersect
	case op == pg.SetOperation_SETOP_EXCEPT && !all:
		return planast.Except
	}
	return "unsupported"
}

// core lifts one SELECT without its WITH, ORDER BY and LIMIT.
func (l *lifter) core(s *pg.SelectStmt, outer *scope, env *cteEnv) (*planast.Query, *scope, []column) {
	if len(s.ValuesLists) > 0 {
		l.unsupported(-1, "VALUES")
	}
	if len(s.WindowClause) > 0 {
		l.unsupported(-1, "WINDOW clause")
	}
	if s.GroupDistinct {
		l.unsupported(-1, "GROUP BY DISTINCT")
	}
	q := &planast.Query{}
	sc := &scope{parent: outer, env: env}
	fromState := l.from(s.FromClause, q, sc)

	sc.clause = "select"
	var cols []column
	seen := map[string]bool{}
	add := func(e planast.Expr, alias, sqlName string, pos int32) {
		alias = uniqueAlias(alias, seen)
		q.Select = append(q.Select, planast.SelectItem{Expr: e, Alias: alias})
		sc.items = append(sc.items, outItem{sqlName: sqlName, alias: alias, expr: e})
		c := column{name: alias, typ: l.typeOf(e), strf: l.strfOf(e), zoned: l.zoned(e)}
		switch x := e.(type) {
		case *planast.Column:
			c.affinity = l.columnInfo(x).affinity
		case *planast.Cast:
			c.affinity = true
		}
		cols = append(cols, c)
	}
	for i, n := range s.TargetList {
		rt := n.GetResTarget()
		if rt == nil || rt.Val == nil {
			l.fail(-1, "select item %d is not an expression", i+1)
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			l.star(cr, sc, add)
			continue
		}
		// strftime stays a number here, for comparisons; Lift turns the
		// root's output back into SQLite's text (see textify)
		e := l.expr(rt.Val, sc)
		alias, sqlName := rt.Name, rt.Name
		if alias == "" {
			if c, ok := e.(*planast.Column); ok {
				alias, sqlName = c.Column, c.Column
			} else {
				alias = l.exprName(rt.Val, i)
			}
		}
		add(e, alias, sqlName, rt.Location)
	}

	if s.WhereClause != nil {
		sc.clause = "where"
		q.Where = l.cond(s.WhereClause, sc)
	}
	l.pairCrossJoins(q, sc, fromState)

	if len(s.GroupClause) > 0 {
		sc.clause = "group_by"
		for _, g := range s.GroupClause {
			if k, ok := intConst(g); ok {
				if k < 1 || int(k) > len(q.Select) {
					l.fail(location(g), "GROUP BY %d: the select list has %d columns", k, len(q.Select))
				}
				q.GroupBy = append(q.GroupBy, q.Select[k-1].Expr)
				continue
			}
			q.GroupBy = append(q.GroupBy, l.expr(g, sc))
		}
	}
	if s.HavingClause != nil {
		sc.clause = "having"
		q.Having = l.cond(s.HavingClause, sc)
	}
	if len(s.DistinctClause) > 0 {
		if len(s.DistinctClause) > 1 || s.DistinctClause[0] != nil && s.DistinctClause[0].Node != nil {
			l.unsupported(-1, "DISTINCT ON")
		}
		q.Distinct = true
	}
	l.outCols[q] = cols
	return q, sc, cols
}

// star expands * or t.* into the columns of the sources, in FROM order; a
// column a USING join merged into an earlier source is listed once.
func (l *lifter) star(cr *pg.ColumnRef, sc *scope, add func(planast.Expr, string, string, int32)) {
	srcs := sc.sources
	if len(cr.Fields) > 1 {
		names := make([]string, 0, len(cr.Fields)-1)
		for _, f := range cr.Fields[:len(cr.Fields)-1] {
			names = append(names, f.GetString_().GetSval())
		}
		if raw := l.src.IdentChain(int(cr.Location), len(names)); raw != nil {
			names = raw
		}
		if len(names) != 1 {
			l.unsupported(cr.Location, "a schema-qualified t.*")
		}
		var hit *source
		for _, src := range sc.sources {
			if sameName(src.sqlName, names[0]) {
				hit = src
			}
		}
		if hit == nil {
			l.fail(cr.Location, "no table or alias %q for %s.*", names[0], names[0])
		}
		srcs = []*source{hit}
	}
	for _, src := range srcs {
		for _, c := range src.cols {
			if len(cr.Fields) == 1 && src.using[strings.ToLower(c.name)] {
				continue
			}
			add(&planast.Column{Table: src.alias, Column: c.name}, c.name, c.name, cr.Location)
		}
	}
}

// uniqueAlias returns alias, or alias_2, alias_3... when an output column
// already has that name (case-insensitively).
func uniqueAlias(alias string, seen map[string]bool) string {
	alias = truncateName(alias, 120)
	a := alias
	for k := 2; seen[strings.ToLower(a)]; k++ {
		a = fmt.Sprintf("%s_%d", alias, k)
	}
	seen[strings.ToLower(a)] = true
	return a
}

// exprName names a computed output column without an alias: the function
// name and its column argument (count, avg_age), else expr_N.
func (l *lifter) exprName(n *pg.Node, i int) string {
	if f := n.GetFuncCall(); f != nil && len(f.Funcname) > 0 {
		name := strings.ToLower(f.Funcname[len(f.Funcname)-1].GetString_().GetSval())
		if name == "btrim" {
			name = "trim" // PostgreSQL's grammar turns TRIM(x) into btrim(x)
		}
		if len(f.Args) == 1 {
			if cr := f.Args[0].GetColumnRef(); cr != nil {
				last := cr.Fields[len(cr.Fields)-1].GetString_().GetSval()
				if last != "" {
					return name + "_" + last
				}
			}
		}
		return name
	}
	return fmt.Sprintf("expr_%d", i+1)
}

// orderBy lifts ORDER BY. A bare name or a position names an output column
// first; in a set operation only output columns may be named.
func (l *lifter) orderBy(items []*pg.Node, q *planast.Query, sc *scope, cols []column) {
	if len(items) == 0 {
		return
	}
	compound := len(q.SetOps) > 0
	if sc != nil {
		sc.clause = "order_by"
	}
	for _, n := range items {
		sb := n.GetSortBy()
		if sb == nil {
			l.fail(-1, "ORDER BY item is not a sort key")
		}
		if sb.SortbyDir == pg.SortByDir_SORTBY_USING {
			l.unsupported(sb.Location, "ORDER BY USING")
		}
		var e planast.Expr
		if k, ok := intConst(sb.Node); ok {
			if k < 1 || int(k) > len(q.Select) {
				l.fail(sb.Location, "ORDER BY %d: the select list has %d columns", k, len(q.Select))
			}
			e = &planast.Column{Column: q.Select[k-1].Alias}
		} else if cr := sb.Node.GetColumnRef(); cr != nil && (len(cr.Fields) == 1 || compound) {
			e = l.orderName(cr, q, sc, compound)
		} else if compound {
			l.unsupported(sb.Location, "ORDER BY an expression over a set operation")
		} else if x := l.julianKey(sb.Node, sc); x != nil {
			e = x
		} else {
			e = l.expr(sb.Node, sc)
		}
		if c, ok := e.(*planast.Column); !ok || c.Table != "" {
			// an expression that is selected: order by its output column
			for _, it := range q.Select {
				if planast.Key(it.Expr) == planast.Key(e) {
					e = &planast.Column{Column: it.Alias}
					break
				}
			}
		}
		if c, ok := e.(*planast.Column); q.Distinct && (!ok || c.Table != "") {
			l.unsupported(sb.Location, "ORDER BY a value that is not selected, with DISTINCT (SQLite sorts by an arbitrary row of each distinct group)")
		}
		o := planast.OrderItem{Expr: e}
		desc := sb.SortbyDir == pg.SortByDir_SORTBY_DESC
		o.Direction = planast.Asc
		if desc {
			o.Direction = planast.Desc
		}
		switch sb.SortbyNulls {
		case pg.SortByNulls_SORTBY_NULLS_FIRST:
			o.Nulls = planast.NullsFirst
		case pg.SortByNulls_SORTBY_NULLS_LAST:
			o.Nulls = planast.NullsLast
		default:
			// SQLite sorts NULL as the smallest value, PostgreSQL as the
			// largest; the plan's default is last
			if l.nullsFirst(desc) {
				o.Nulls = planast.NullsFirst
			}
		}
		q.OrderBy = append(q.OrderBy, o)
	}
}

// orderName resolves a name in ORDER BY: an output column's name first,
// then (outside set operations) a column of the sources.
func (l *lifter) orderName(cr *pg.ColumnRef, q *planast.Query, sc *scope, compound bool) planast.Expr {
	last := cr.Fields[len(cr.Fields)-1].GetString_().GetSval()
	if raw := l.src.IdentChain(int(cr.Location), len(cr.Fields)); raw != nil {
		last = raw[len(raw)-1]
	}
	if len(cr.Fields) == 1 {
		if sc != nil {
			for _, it := range sc.items {
				if it.sqlName != "" && sameName(it.sqlName, last) {
					return &planast.Column{Column: it.alias}
				}
			}
		}
		for _, it := range q.Select {
			if sameName(it.Alias, last) {
				return &planast.Column{Column: it.Alias}
			}
		}
	}
	if !compound {
		return l.expr(&pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: cr}}, sc)
	}
	// T1.name over a set operation: the first branch's output column that
	// is that column
	for _, it := range q.Select {
		if c, ok := it.Expr.(*planast.Column); ok && sameName(c.Column, last) {
			return &planast.Column{Column: it.Alias}
		}
	}
	l.unsupported(cr.Location, "ORDER BY %q, which is not an output column of the set operation", last)
	return nil
}

// limit lifts LIMIT and OFFSET, which must be integer constants.
func (l *lifter) limit(s *pg.SelectStmt, q *planast.Query) {
	if s.LimitOption == pg.LimitOption_LIMIT_OPTION_WITH_TIES {
		// the plan's with_ties: the rows ranked within the limit by the
		// ORDER BY keys, which PostgreSQL requires
		if s.LimitOffset != nil {
			l.unsupported(location(s.LimitOffset), "FETCH ... WITH TIES with an OFFSET")
		}
		q.WithTies = true
	}
	if s.LimitCount != nil {
		if c := s.LimitCount.GetAConst(); c != nil && c.Isnull {
			// LIMIT ALL / LIMIT NULL
		} else if k, ok := intConst(s.LimitCount); ok {
			if k >= 0 || !l.sqlite() {
				q.Limit = &k
			}
		} else {
			l.unsupported(location(s.LimitCount), "a LIMIT that is not an integer constant of 64 bits")
		}
	}
	if s.LimitOffset != nil {
		k, ok := intConst(s.LimitOffset)
		if !ok {
			l.unsupported(location(s.LimitOffset), "an OFFSET that is not an integer constant of 64 bits")
		}
		if k > 0 {
			q.Offset = &k
		}
	}
}

// intConst returns the value of an integer constant node (a negated one
// too).
func intConst(n *pg.Node) (int64, bool) {
	if n == nil {
		return 0, false
	}
	if c := n.GetAConst(); c != nil {
		if iv, ok := c.Val.(*pg.A_Const_Ival); ok {
			return int64(iv.Ival.Ival), true
		}
		if fv, ok := c.Val.(*pg.A_Const_Fval); ok {
			var k int64
			if _, err := fmt.Sscanf(fv.Fval.Fval, "%d", &k); err == nil && fmt.Sprint(k) == fv.Fval.Fval {
				return k, true
			}
		}
	}
	return 0, false
}

// firstLocation is a position for a statement-level message: its first
// select item's.
func firstLocation(s *pg.SelectStmt) int32 {
	if len(s.TargetList) > 0 {
		if rt := s.TargetList[0].GetResTarget(); rt != nil {
			return rt.Location
		}
	}
	return -1
}

// julianKey lifts ORDER BY julianday(x) for a date or timestamp x as
// ORDER BY x: julianday grows with the date, so the order is the same.
func (l *lifter) julianKey(n *pg.Node, sc *scope) planast.Expr {
	f := n.GetFuncCall()
	if f == nil || !strings.EqualFold(opName(f.Funcname), "julianday") || len(f.Args) != 1 || f.Over != nil {
		return nil
	}
	x := l.dateValue(f.Args[0], sc)
	if !l.typeOf(x).IsTemporal() {
		return nil
	}
	return x
}
