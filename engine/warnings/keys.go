package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// keyPair is two text columns a plan pairs rows by, compared with =: a
// join's key, an equality of two columns in a condition, or an IN
// subquery's operand and the column the subquery selects.
type keyPair struct {
	left, right   side
	in, negatedIn bool // an IN (NOT IN) subquery: right is the column it selects
	// correlated: an equality inside a subquery with a column of an
	// enclosing query (EXISTS ... WHERE s.code = c.code): right is the
	// outer column
	correlated bool
}

// side is one column of a keyPair: where it is stored and how the plan
// names it (alias and column).
type side struct {
	t     *schema.Table
	c     *schema.Column
	alias string
	name  string
}

func (s side) ref() string { return s.alias + "." + s.name }

// keyWarnings explain rows a plan loses because its keys compare exactly
// while the stored values differ in letter case or surrounding spaces:
// flights.SourceAirport stores " APG" and airports.AirportCode "APG", or
// orders.customer_code 'C004 ' and customers.code 'C004'. An inner join
// drops those rows, an outer join gives them NULLs (so a LEFT JOIN … IS
// NULL lists customers who do have orders), IN leaves them out and NOT
// IN keeps them; the result looks right and is not. Each warning names
// both spellings, how many values differ so, and the comparison written
// with TRIM (or LOWER) that pairs them.
//
// A value proves such a difference only against a complete list of the
// other side (knownValues' all: the profile saw every value, or the value
// index holds them all): in a partial list the exact partner could be the
// value left out. The values checked may be partial (samples): one found
// is a real row. A caller behind a row filter gets no stored list (stored
// returns nil) and its snapshot carries no samples of such tables.
func keyWarnings(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string, empty bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range keyPairs(snap, plan) {
		if w := keyWarning(p, stored, empty); w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// keyPairs lists the text key pairs of every query of plan.
func keyPairs(snap *schema.Snapshot, plan *planast.Query) []keyPair {
	var out []keyPair
	add := func(p keyPair, ok bool) {
		if ok && textual(p.left.c) && textual(p.right.c) {
			out = append(out, p)
		}
	}
	outer := enclosing(plan)
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, j := range q.Joins {
			for _, on := range j.On {
				l, lok := sideOf(snap, q, &planast.Column{Table: j.Left, Column: on.LeftColumn})
				r, rok := sideOf(snap, q, &planast.Column{Table: j.Right, Column: on.RightColumn})
				add(keyPair{left: l, right: r}, lok && rok)
			}
		}
		conds := []planast.Expr{q.Where}
		for _, j := range q.Joins {
			conds = append(conds, j.Condition)
		}
		for _, cond := range conds {
			inspectOwn(cond, func(e planast.Expr) {
				switch x := e.(type) {
				case *planast.Binary:
					lc, lok := x.Left.(*planast.Column)
					rc, rok := x.Right.(*planast.Column)
					if x.Op != "=" || !lok || !rok {
						return
					}
					l, lok := sideOf(snap, q, lc)
					r, rok := sideOf(snap, q, rc)
					switch {
					case lok && !rok:
						r, rok = outerSide(snap, outer, q, rc)
						add(keyPair{left: l, right: r, correlated: true}, rok && l.t != r.t)
					case rok && !lok:
						l, lok = outerSide(snap, outer, q, lc)
						add(keyPair{left: r, right: l, correlated: true}, lok && l.t != r.t)
					default:
						add(keyPair{left: l, right: r}, lok && rok && l.t != r.t)
					}
				case *planast.In:
					ref, ok := x.Expr.(*planast.Column)
					if !ok || x.Subquery == nil || len(x.Subquery.Select) != 1 || len(x.Subquery.SetOps) > 0 {
						return
					}
					sel, ok := x.Subquery.Select[0].Expr.(*planast.Column)
					if !ok {
						return
					}
					l, lok := sideOf(snap, q, ref)
					r, rok := sideOf(snap, x.Subquery, sel)
					add(keyPair{left: l, right: r, in: true, negatedIn: x.Negated}, lok && rok)
				}
			})
		}
		return true
	})
	return out
}

// inspectOwn calls f on each expression of cond that belongs to its own
// query: a subquery's expressions resolve against the subquery and are
// visited when Inspect reaches that query.
func inspectOwn(cond planast.Expr, f func(planast.Expr)) {
	planast.Inspect(cond, func(n planast.Node) bool {
		if _, ok := n.(*planast.Query); ok {
			return false
		}
		if e, ok := n.(planast.Expr); ok {
			f(e)
		}
		return true
	})
}

// enclosing maps each subquery of plan's expressions (EXISTS, IN, a
// scalar subquery) to the query it stands in, whose columns it may name.
func enclosing(plan *planast.Query) map[*planast.Query]*planast.Query {
	parent := map[*planast.Query]*planast.Query{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, root := range q.OwnExprs() {
			planast.Inspect(root, func(m planast.Node) bool {
				if sub, ok := m.(*planast.Query); ok {
					parent[sub] = q
					return false
				}
				return true
			})
		}
		return true
	})
	return parent
}

// outerSide resolves a column reference of q that names a source of an
// enclosing query, the nearest first.
func outerSide(snap *schema.Snapshot, outer map[*planast.Query]*planast.Query, q *planast.Query, ref *planast.Column) (side, bool) {
	if ref.Table == "" {
		return side{}, false
	}
	for p := outer[q]; p != nil; p = outer[p] {
		if s, ok := sideOf(snap, p, ref); ok {
			return s, true
		}
	}
	return side{}, false
}

// eachQuery calls f on plan and each query inside it (subqueries,
// derived tables, set operations' parts), outermost first.
func eachQuery(plan *planast.Query, f func(q *planast.Query)) {
	planast.Inspect(plan, func(n planast.Node) bool {
		if q, ok := n.(*planast.Query); ok {
			f(q)
		}
		return true
	})
}

// inspectQuery calls f on each expression of q's own (inspectOwn over
// q.OwnExprs): its subqueries are queries of their own.
func inspectQuery(q *planast.Query, f func(planast.Expr)) {
	for _, root := range q.OwnExprs() {
		inspectOwn(root, f)
	}
}

// sideOf resolves a column reference of q to its stored table and column.
func sideOf(snap *schema.Snapshot, q *planast.Query, ref *planast.Column) (side, bool) {
	t, c := emptyrange.TableOfColumn(snap, q, ref)
	alias := ref.Table
	if alias == "" && len(q.From) == 1 {
		alias = q.From[0].Alias
	}
	return side{t: t, c: c, alias: alias, name: ref.Column}, c != nil
}

// keyWarning checks one pair; "" when no stored value of one side equals
// one of the other's only loosely (letter case, surrounding spaces).
func keyWarning(p keyPair, stored func(string, string, string) []string, empty bool) string {
	if stored == nil {
		return "" // a row-filtered caller may not learn the values
	}
	lv, lall := knownValues(p.left.t, p.left.c, stored)
	rv, rall := knownValues(p.right.t, p.right.c, stored)
	var m looseMatch
	from, to := p.left, p.right
	if rall {
		m = looseOnly(lv, rv)
	}
	if lall {
		back := looseOnly(rv, lv)
		back.paired = back.paired || m.paired
		if back.n > m.n {
			m, from, to = back, p.right, p.left
		} else {
			m.paired = back.paired
		}
	}
	if m.n == 0 {
		return ""
	}
	call := func(s side) string {
		arg, _ := planast.JSON(map[string]string{"kind": "column", "table": s.alias, "column": s.name})
		return foldedExpr(string(arg), m.spaces, m.letters)
	}
	lead := ""
	if empty && !m.paired { // the keys are why: no value has an exact partner
		lead = "no rows matched, and "
	}
	what := fmt.Sprintf("the join key %s = %s", p.left.ref(), p.right.ref())
	effect := "the rows holding them (a value may be in several) find no partner: an inner join drops them, an outer join gives them NULLs (so an IS NULL test counts them as unmatched)"
	fix := fmt.Sprintf(`join on a condition instead, with "on": [] and "condition": {"kind": "binary", "op": "=", "left": %s, "right": %s}`, call(p.left), call(p.right))
	if p.correlated {
		what = fmt.Sprintf("the subquery's condition %s = %s (a column of the enclosing query)", p.left.ref(), p.right.ref())
		effect = "the subquery finds no partner for the rows holding them: NOT EXISTS keeps them as if they had none, EXISTS leaves them out"
		fix = fmt.Sprintf(`compare {"kind": "binary", "op": "=", "left": %s, "right": %s} in the subquery instead`, call(p.left), call(p.right))
	}
	if p.in {
		op := "IN"
		effect = "the rows holding them are left out"
		if p.negatedIn {
			op, effect = "NOT IN", "the rows holding them are kept as if absent"
		}
		what = fmt.Sprintf("%s %s (a subquery selecting %s)", p.left.ref(), op, p.right.ref())
		fix = fmt.Sprintf(`compare %s as the operand and select %s in the subquery`, call(p.left), call(p.right))
	}
	values := fmt.Sprintf("%d stored values of %q equal", m.n, from.name)
	if m.n == 1 {
		values = fmt.Sprintf("1 stored value of %q equals", from.name)
	}
	return fmt.Sprintf(`%s%s compares exactly, but %s a value of %q only when letter case and surrounding spaces are ignored (%q against %q): %s; %s`,
		lead, what, values, to.name, m.ex[0], m.ex[1], effect, fix)
}

// looseMatch is what looseOnly found: n values with a partner only once
// letter case and surrounding spaces are ignored, the first of them and
// its partner, whether any of those differ in spaces and in letter case
// (so the fix trims, lowers or both), and whether any value had an exact
// partner.
type looseMatch struct {
	n                       int
	ex                      [2]string
	spaces, letters, paired bool
}

// looseOnly compares the distinct values of vals with all, a complete
// list of the other side.
func looseOnly(vals, all []string) looseMatch {
	exact := make(map[string]bool, len(all))
	byLoose := make(map[string]string, len(all))
	for _, v := range all {
		exact[v] = true
		if _, ok := byLoose[loose(v)]; !ok {
			byLoose[loose(v)] = v
		}
	}
	var m looseMatch
	counted := map[string]bool{}
	for _, v := range vals {
		m.paired = m.paired || exact[v]
		if exact[v] || counted[v] {
			continue
		}
		partner, ok := byLoose[loose(v)]
		if !ok {
			continue
		}
		if m.n == 0 {
			m.ex = [2]string{v, partner}
		}
		counted[v] = true
		m.n++
		// loosely equal: what still differs once lowered is spaces, once trimmed case
		m.spaces = m.spaces || strings.ToLower(v) != strings.ToLower(partner)
		m.letters = m.letters || strings.TrimSpace(v) != strings.TrimSpace(partner)
	}
	return m
}

// textual reports whether a column's values compare as text.
func textual(c *schema.Column) bool {
	return c != nil && (c.Type == planast.TypeText || c.Type == planast.TypeUnknown)
}

// complete reports whether vals holds every distinct value the column's
// profile counted: the index keeps a column's values up to a bound, else
// only samples, and a missing value could be the one both sides share.
func complete(c *schema.Column, vals []string) bool {
	p := c.Profile
	return len(vals) > 0 && p != nil && p.SampledRows == 0 && p.DistinctCount > 0 && int64(len(vals)) >= p.DistinctCount
}
