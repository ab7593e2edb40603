package lift

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// fromState remembers, while one FROM clause is lifted, which joins had no
// condition of their own (a comma, or SQLite's JOIN without ON): equalities
// in WHERE may become their key pairs (pairCrossJoins).
type fromState struct {
	cross     map[string]bool // plan aliases of such joins' right sides
	pureComma bool            // every FROM item is a table or subquery, comma-separated
}

// from lifts the FROM clause into q.From and q.Joins, left-deep, adding the
// sources to sc in the order SQL declares them.
func (l *lifter) from(items []*pg.Node, q *planast.Query, sc *scope) *fromState {
	st := &fromState{cross: map[string]bool{}, pureComma: true}
	for i, it := range items {
		if it.GetJoinExpr() != nil {
			st.pureComma = false
		}
		l.fromItem(it, q, sc, st, i == 0)
	}
	return st
}

func (l *lifter) fromItem(n *pg.Node, q *planast.Query, sc *scope, st *fromState, first bool) {
	j := n.GetJoinExpr()
	if j == nil {
		src, f := l.leaf(n, sc)
		if first {
			sc.sources = append(sc.sources, src)
			q.From = append(q.From, f)
			return
		}
		l.addJoin(q, sc, src, f, planast.JoinInner, nil, nil, st)
		return
	}
	if j.Alias != nil {
		l.unsupported(-1, "an alias on a parenthesised join")
	}
	if j.IsNatural {
		l.unsupported(-1, "NATURAL JOIN")
	}
	l.fromItem(j.Larg, q, sc, st, first)
	if j.Rarg.GetJoinExpr() != nil {
		l.unsupported(-1, "a parenthesised join on the right of a join")
	}
	var typ planast.JoinType
	switch j.Jointype {
	case pg.JoinType_JOIN_INNER:
		typ = planast.JoinInner
	case pg.JoinType_JOIN_LEFT:
		typ = planast.JoinLeft
	case pg.JoinType_JOIN_RIGHT:
		typ = planast.JoinRight
	case pg.JoinType_JOIN_FULL:
		typ = planast.JoinFull
	default:
		l.unsupported(-1, "join type %s", j.Jointype)
	}
	src, f := l.leaf(j.Rarg, sc)
	l.addJoin(q, sc, src, f, typ, j.Quals, j.UsingClause, st)
}

// leaf lifts a table, CTE or derived table of FROM.
func (l *lifter) leaf(n *pg.Node, sc *scope) (*source, planast.From) {
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		if rv.Catalogname != "" {
			l.unsupported(rv.Location, "a catalog-qualified table name")
		}
		schema, name := rv.Schemaname, rv.Relname
		if raw := l.src.IdentChain(int(rv.Location), 1+btoi(schema != "")); raw != nil {
			name = raw[len(raw)-1]
			if schema != "" {
				schema = raw[0]
			}
		}
		sqlName, want := name, ""
		if rv.Alias != nil {
			if len(rv.Alias.Colnames) > 0 {
				l.unsupported(rv.Location, "column aliases on a table")
			}
			sqlName, want = rv.Alias.Aliasname, rv.Alias.Aliasname
		}
		src := &source{sqlName: sqlName}
		f := planast.From{}
		if d := sc.env.lookup(name); schema == "" && d != nil {
			f.Table = d.name
			src.cols = append([]column(nil), d.cols...)
		} else {
			info, ok := l.cat.LookupTable(schema, name)
			if !ok {
				l.fail(rv.Location, "no table %q", qualify(schema, name))
			}
			f.Table = info.Name
			if schema != "" {
				f.Schema = info.Schema
			}
			src.table = info
			for _, c := range info.Columns {
				src.cols = append(src.cols, column{name: c.Name, typ: c.Type, affinity: true, zoned: c.Zoned})
			}
		}
		src.alias = l.alias(want)
		f.Alias = src.alias
		l.register(src)
		return src, f
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		if rs.Lateral {
			l.unsupported(-1, "LATERAL")
		}
		body := rs.Subquery.GetSelectStmt()
		if body == nil {
			l.unsupported(-1, "a derived table that is not a SELECT")
		}
		sub, cols := l.query(body, nil, sc.env)
		src := &source{}
		if rs.Alias != nil {
			cols = l.renameOutputs(sub, cols, rs.Alias.Colnames, -1)
			src.sqlName = rs.Alias.Aliasname
		}
		src.cols = cols
		src.alias = l.alias(src.sqlName)
		l.register(src)
		return src, planast.From{Subquery: sub, Alias: src.alias}
	case n.GetRangeFunction() != nil:
		l.unsupported(-1, "a table-valued function in FROM")
	}
	l.unsupported(-1, "this kind of FROM item")
	return nil, planast.From{}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func qualify(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// register makes a source findable by its plan alias (aliases are unique
// across the plan), for typing.
func (l *lifter) register(src *source) {
	if l.byAlias == nil {
		l.byAlias = map[string]*source{}
	}
	l.byAlias[src.alias] = src
}

// addJoin appends src as the right side of a join whose condition is quals
// or a USING list (neither: a cross join, ON TRUE).
func (l *lifter) addJoin(q *planast.Query, sc *scope, src *source, f planast.From, typ planast.JoinType, quals *pg.Node, using []*pg.Node, st *fromState) {
	earlier := append([]*source(nil), sc.sources...)
	sc.sources = append(sc.sources, src)
	q.From = append(q.From, f)
	j := planast.Join{Type: typ, Left: q.From[0].Alias, Right: src.alias}
	switch {
	case len(using) > 0:
		if typ == planast.JoinRight || typ == planast.JoinFull {
			l.unsupported(-1, "USING on a right or full join")
		}
		src.using = map[string]bool{}
		j.Left = ""
		for _, u := range using {
			name := u.GetString_().GetSval()
			var left *source
			for _, e := range earlier {
				if _, ok := e.column(name); ok && !e.using[strings.ToLower(name)] {
					left = e
					break
				}
			}
			rc, rok := src.column(name)
			if left == nil || !rok {
				l.fail(-1, "USING column %q is not on both sides of the join", name)
			}
			lc, _ := left.column(name)
			if j.Left != "" && j.Left != left.alias {
				l.unsupported(-1, "USING columns from different tables")
			}
			j.Left = left.alias
			j.On = append(j.On, planast.OnPair{LeftColumn: lc.name, RightColumn: rc.name})
			src.using[strings.ToLower(rc.name)] = true
		}
	case quals != nil:
		prev := sc.clause
		sc.clause = "join"
		cond := l.cond(quals, sc)
		sc.clause = prev
		if isTrue(cond) {
			j.Condition = cond
			st.cross[src.alias] = typ == planast.JoinInner
			break
		}
		l.splitJoin(&j, splitAnd(cond), earlier)
	default:
		j.Condition = &planast.Literal{Type: planast.TBoolean, Bool: true}
		st.cross[src.alias] = typ == planast.JoinInner
	}
	q.Joins = append(q.Joins, j)
}

// splitJoin turns the conjuncts of a join condition that equate a column of
// the right side with a column of one earlier source into key pairs; the
// rest stay the join's condition.
func (l *lifter) splitJoin(j *planast.Join, conj []planast.Expr, earlier []*source) {
	isEarlier := map[string]bool{}
	for _, e := range earlier {
		isEarlier[e.alias] = true
	}
	var rest []planast.Expr
	left := ""
	for _, c := range conj {
		lt, lc, rc, ok := l.keyPair(c, j.Right, isEarlier)
		if ok && (left == "" || left == lt) {
			left = lt
			j.On = append(j.On, planast.OnPair{LeftColumn: lc, RightColumn: rc})
			continue
		}
		rest = append(rest, c)
	}
	if left != "" {
		j.Left = left
	}
	j.Condition = andAll(rest)
}

// keyPair reports whether c is a.x = right.y (either way round) with a in
// isEarlier and x, y of comparable types, returning a, x and y.
func (l *lifter) keyPair(c planast.Expr, right string, isEarlier map[string]bool) (string, string, string, bool) {
	b, ok := c.(*planast.Binary)
	if !ok || b.Op != planast.OpEq {
		return "", "", "", false
	}
	x, ok1 := b.Left.(*planast.Column)
	y, ok2 := b.Right.(*planast.Column)
	if !ok1 || !ok2 {
		return "", "", "", false
	}
	if x.Table == right {
		x, y = y, x
	}
	if y.Table != right || !isEarlier[x.Table] {
		return "", "", "", false
	}
	if !comparableTypes(l.typeOf(x), l.typeOf(y)) {
		return "", "", "", false
	}
	return x.Table, x.Column, y.Column, true
}

// pairCrossJoins moves WHERE equalities into the joins that had no
// condition of their own, when no right or full join makes that change the
// meaning. A FROM list that is only comma-separated sources is reordered
// so that each source joins one already joined, where WHERE links them.
func (l *lifter) pairCrossJoins(q *planast.Query, sc *scope, st *fromState) {
	if q.Where == nil {
		return
	}
	for _, j := range q.Joins {
		if j.Type == planast.JoinRight || j.Type == planast.JoinFull {
			return
		}
	}
	conj := splitAnd(q.Where)
	used := make([]bool, len(conj))
	pairsFor := func(right string, joined map[string]bool) (string, []planast.OnPair) {
		left := ""
		var pairs []planast.OnPair
		for i, c := range conj {
			if used[i] {
				continue
			}
			lt, lc, rc, ok := l.keyPair(c, right, joined)
			if ok && (left == "" || left == lt) {
				left = lt
				pairs = append(pairs, planast.OnPair{LeftColumn: lc, RightColumn: rc})
				used[i] = true
			}
		}
		return left, pairs
	}
	// condsFor moves the unused conjuncts that link right with joined
	// sources (and read nothing else) into a condition
	condsFor := func(right string, joined map[string]bool) planast.Expr {
		var out []planast.Expr
		for i, c := range conj {
			if !used[i] && links(c, right, joined) {
				out = append(out, c)
				used[i] = true
			}
		}
		return andAll(out)
	}
	allCross := st.pureComma && len(q.Joins) > 0
	for _, j := range q.Joins {
		allCross = allCross && st.cross[j.Right]
	}
	if allCross {
		byAlias := map[string]planast.From{}
		for _, f := range q.From {
			byAlias[f.Alias] = f
		}
		order := []string{q.From[0].Alias}
		joined := map[string]bool{q.From[0].Alias: true}
		remaining := []string{}
		for _, f := range q.From[1:] {
			remaining = append(remaining, f.Alias)
		}
		var joins []planast.Join
		for len(remaining) > 0 {
			pick := 0
			for k, r := range remaining {
				if l.linked(conj, used, r, joined) {
					pick = k
					break
				}
			}
			r := remaining[pick]
			remaining = append(remaining[:pick], remaining[pick+1:]...)
			j := planast.Join{Type: planast.JoinInner, Left: q.From[0].Alias, Right: r}
			if left, pairs := pairsFor(r, joined); left != "" {
				j.Left, j.On = left, pairs
			} else if c := condsFor(r, joined); c != nil {
				j.Condition = c
			} else {
				j.Condition = &planast.Literal{Type: planast.TBoolean, Bool: true}
			}
			joins = append(joins, j)
			order = append(order, r)
			joined[r] = true
		}
		from := make([]planast.From, 0, len(order))
		for _, a := range order {
			from = append(from, byAlias[a])
		}
		q.From, q.Joins = from, joins
	} else {
		joined := map[string]bool{q.From[0].Alias: true}
		for i := range q.Joins {
			j := &q.Joins[i]
			if st.cross[j.Right] && isTrue(j.Condition) && len(j.On) == 0 {
				if left, pairs := pairsFor(j.Right, joined); left != "" {
					j.Left, j.On, j.Condition = left, pairs, nil
				} else if c := condsFor(j.Right, joined); c != nil {
					j.Condition = c
				}
			}
			joined[j.Right] = true
		}
	}
	var rest []planast.Expr
	for i, c := range conj {
		if !used[i] {
			rest = append(rest, c)
		}
	}
	q.Where = andAll(rest)
}

// linked reports whether an unused conjunct links r with a joined source.
func (l *lifter) linked(conj []planast.Expr, used []bool, r string, joined map[string]bool) bool {
	for i, c := range conj {
		if !used[i] && links(c, r, joined) {
			return true
		}
	}
	return false
}

// links reports whether the condition c reads r's columns and some joined
// source's, nothing else, and holds no subquery.
func links(c planast.Expr, r string, joined map[string]bool) bool {
	seenR, seenJ, other := false, false, false
	planast.Inspect(c, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Query:
			other = true
		case *planast.Column:
			switch {
			case x.Table == r:
				seenR = true
			case joined[x.Table]:
				seenJ = true
			default:
				other = true
			}
		}
		return !other
	})
	return seenR && seenJ && !other
}

func isTrue(e planast.Expr) bool {
	lit, ok := e.(*planast.Literal)
	return ok && lit.Type == planast.TBoolean && lit.Bool
}

// splitAnd returns the conjuncts of e (nil: none).
func splitAnd(e planast.Expr) []planast.Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*planast.Binary); ok && b.Op == planast.OpAnd {
		return append(splitAnd(b.Left), splitAnd(b.Right)...)
	}
	return []planast.Expr{e}
}

// andAll joins conjuncts left to right (nil for none).
func andAll(es []planast.Expr) planast.Expr {
	var out planast.Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &planast.Binary{Op: planast.OpAnd, Left: out, Right: e}
		}
	}
	return out
}
