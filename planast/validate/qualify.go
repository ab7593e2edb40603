package validate

import (
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// qualify and with_ties: filtering on window results and top-N with ties
// in one flat plan. Both are rendered by wrapping the query in derived
// tables (see package render), so both apply to one SELECT: not to a
// query with set operations, and not to a subquery that may be correlated.

// qualifySource is the alias of the pseudo-source through which qualify
// sees the output columns; it never reaches the validated plan.
const qualifySource = "\x00outputs"

func (v *validator) qualifyTies(q *Query, path string, rel relation, outer *scope, env *cteEnv) {
	if q.Qualify == nil && !q.WithTies {
		return
	}
	switch {
	case len(q.SetOps) > 0:
		v.add(CodeBadValue, join(path, "qualify"), "qualify and with_ties apply to a single select, not to a query with set_ops; put the set operation in a CTE and filter the CTE")
		return
	case outer != nil:
		v.add(CodeBadValue, join(path, "qualify"), "qualify and with_ties are not allowed in a subquery of an expression; use them in the plan's root, a CTE or a derived table")
		return
	}
	if q.WithTies {
		switch {
		case q.Limit == nil:
			v.add(CodeLimit, join(path, "with_ties"), "with_ties needs a limit: the number of rows before ties")
		case len(q.OrderBy) == 0:
			v.add(CodeOrder, join(path, "with_ties"), "with_ties needs an order_by: ties are rows with equal order_by keys")
		case q.Offset != nil:
			v.add(CodeLimit, join(path, "offset"), "with_ties cannot be combined with offset")
		}
	}
	if q.Qualify == nil {
		return
	}
	p := join(path, "qualify")
	n0 := v.mark()
	windowed := false
	Inspect(q.Qualify, func(n Node) bool {
		switch n := n.(type) {
		case *Query:
			v.add(CodeBadValue, p, "qualify may not hold a subquery; filter with where, or compute the value in select")
			return false
		case *Column:
			it := outputAlias(q, n.Column)
			if n.Table != "" || it == nil {
				v.add(CodeColumnNotFound, p, "qualify may only name output columns by alias (%s), not %q; select the value you filter on", strings.Join(rel.names(), ", "), n.Column)
				return true
			}
			if ContainsWindow(it.Expr) {
				windowed = true
			}
		}
		return true
	})
	if v.mark() != n0 {
		return
	}
	if !windowed {
		v.add(CodeBadValue, p, "qualify filters on window results, and this condition names none; use where (or having for aggregates)")
		return
	}
	sc := &scope{clause: "qualify", sources: []*source{{alias: qualifySource, rel: rel, joined: true}}}
	t := v.expr(q.Qualify, p, sc, env)
	v.wantBool(t, p)
	Inspect(q.Qualify, func(n Node) bool {
		if c, ok := n.(*Column); ok && c.Table == qualifySource {
			c.Table = ""
		}
		return true
	})
}
