package scope

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Filter is the row restriction one caller has on one table: only rows for
// which the expression is true may be read. Where is the configured text
// (roles' filters on the table ANDed, several granting roles ORed), for
// display to administrators; never show it to the caller.
type Filter struct {
	Datasource, Schema, Table string
	Where                     string
	expr                      fnode
}

// Params lists the :names the filter binds from the caller's attributes.
func (f Filter) Params() []string {
	var out []string
	f.expr.walk(func(n fnode) {
		if p, ok := n.(fparam); ok && !slices.Contains(out, p.name) {
			out = append(out, p.name)
		}
	})
	return out
}

// Columns lists the column names the filter reads, as written.
func (f Filter) Columns() []string {
	var out []string
	f.expr.walk(func(n fnode) {
		if c, ok := n.(fcol); ok && !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
	})
	return out
}

// Expr returns the filter in the plan language, with every :name replaced
// by a typed literal of the caller's attribute (integer, decimal, string or
// boolean) and every column qualified by alias. It fails when the caller
// lacks an attribute the filter needs.
func (f Filter) Expr(sc *Scope, alias string) (planast.Expr, error) {
	return f.expr.plan(func(name string) (planast.Expr, error) {
		v, ok := sc.Attribute(name)
		if !ok {
			return nil, fmt.Errorf("scope: the caller has no attribute %q, which a row filter needs", name)
		}
		return literalOf(v)
	}, alias)
}

// RowFilters returns the filters the caller has on ds.schema.table: nil
// when none apply (single user, or some role granting the table has no
// filter on it), else one Filter whose expression ORs, over the caller's
// roles that grant the table, the AND of that role's filters on it.
// Callers apply it with ApplyRowFilters (plans) or package curated
// (verified SQL); it is never something to skip.
func (s *Scope) RowFilters(ds, schema, table string) []Filter {
	if s == nil || s.all {
		return nil
	}
	schema = s.schemaOf(ds, schema)
	var alts []fnode
	var texts []string
	for _, r := range s.roles {
		if !r.table(ds, schema, table) {
			continue
		}
		fs := r.filtersFor(ds, schema, table)
		if len(fs) == 0 {
			return nil // this role reads every row
		}
		var e fnode
		var parts []string
		for _, f := range fs {
			parts = append(parts, "("+f.where+")")
			if e == nil {
				e = f.expr
			} else {
				e = fbin{op: planast.OpAnd, l: e, r: f.expr}
			}
		}
		alts = append(alts, e)
		texts = append(texts, strings.Join(parts, " AND "))
	}
	if len(alts) == 0 {
		return nil
	}
	e := alts[0]
	for _, a := range alts[1:] {
		e = fbin{op: planast.OpOr, l: e, r: a}
	}
	where := texts[0]
	if len(texts) > 1 {
		where = "(" + strings.Join(texts, ") OR (") + ")"
	}
	return []Filter{{Datasource: ds, Schema: schema, Table: table, Where: where, expr: e}}
}

// literalOf types an attribute value as a plan literal.
func literalOf(v any) (planast.Expr, error) {
	switch x := v.(type) {
	case int:
		return &planast.Literal{Type: planast.TInteger, Int: int64(x)}, nil
	case int64:
		return &planast.Literal{Type: planast.TInteger, Int: x}, nil
	case float64:
		if x == float64(int64(x)) && x >= -1<<53 && x <= 1<<53 {
			return &planast.Literal{Type: planast.TInteger, Int: int64(x)}, nil
		}
		return &planast.Literal{Type: planast.TDecimal, Text: fmt.Sprint(x)}, nil
	case string:
		return &planast.Literal{Type: planast.TString, Text: x}, nil
	case bool:
		return &planast.Literal{Type: planast.TBoolean, Bool: x}, nil
	}
	return nil, fmt.Errorf("scope: attribute value %v (%T) is not a string, number or boolean", v, v)
}

// fnode is a parsed row-filter expression. plan builds a fresh plan
// expression on each call (plans are rewritten per caller).
type fnode interface {
	plan(bind func(string) (planast.Expr, error), alias string) (planast.Expr, error)
	walk(func(fnode))
}

type (
	fcol   struct{ name string }
	flit   struct{ lit planast.Literal }
	fparam struct{ name string }
	fbin   struct {
		op   string
		l, r fnode
	}
	fnot    struct{ x fnode }
	fisnull struct {
		x   fnode
		neg bool
	}
	fin struct {
		x    fnode
		list []fnode
		neg  bool
	}
	fbetween struct {
		x, lo, hi fnode
		neg       bool
	}
	flike struct {
		x, pat fnode
		neg    bool
	}
)

func (n fcol) plan(_ func(string) (planast.Expr, error), alias string) (planast.Expr, error) {
	return &planast.Column{Table: alias, Column: n.name}, nil
}
func (n flit) plan(func(string) (planast.Expr, error), string) (planast.Expr, error) {
	l := n.lit
	return &l, nil
}
func (n fparam) plan(bind func(string) (planast.Expr, error), _ string) (planast.Expr, error) {
	return bind(n.name)
}
func (n fbin) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	l, err := n.l.plan(b, a)
	if err != nil {
		return nil, err
	}
	r, err := n.r.plan(b, a)
	if err != nil {
		return nil, err
	}
	return &planast.Binary{Op: n.op, Left: l, Right: r}, nil
}
func (n fnot) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	x, err := n.x.plan(b, a)
	if err != nil {
		return nil, err
	}
	return &planast.Unary{Op: "not", Expr: x}, nil
}
func (n fisnull) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	x, err := n.x.plan(b, a)
	if err != nil {
		return nil, err
	}
	return &planast.IsNull{Expr: x, Negated: n.neg}, nil
}
func (n fin) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	x, err := n.x.plan(b, a)
	if err != nil {
		return nil, err
	}
	out := &planast.In{Expr: x, Negated: n.neg}
	for _, e := range n.list {
		pe, err := e.plan(b, a)
		if err != nil {
			return nil, err
		}
		out.List = append(out.List, pe)
	}
	return out, nil
}
func (n fbetween) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	var xs [3]planast.Expr
	for i, e := range []fnode{n.x, n.lo, n.hi} {
		pe, err := e.plan(b, a)
		if err != nil {
			return nil, err
		}
		xs[i] = pe
	}
	return &planast.Between{Expr: xs[0], Low: xs[1], High: xs[2], Negated: n.neg}, nil
}
func (n flike) plan(b func(string) (planast.Expr, error), a string) (planast.Expr, error) {
	x, err := n.x.plan(b, a)
	if err != nil {
		return nil, err
	}
	p, err := n.pat.plan(b, a)
	if err != nil {
		return nil, err
	}
	return &planast.Like{Expr: x, Pattern: p, Negated: n.neg}, nil
}

func (n fcol) walk(f func(fnode))   { f(n) }
func (n flit) walk(f func(fnode))   { f(n) }
func (n fparam) walk(f func(fnode)) { f(n) }
func (n fbin) walk(f func(fnode))   { f(n); n.l.walk(f); n.r.walk(f) }
func (n fnot) walk(f func(fnode))   { f(n); n.x.walk(f) }
func (n fisnull) walk(f func(fnode)) {
	f(n)
	n.x.walk(f)
}
func (n fin) walk(f func(fnode)) {
	f(n)
	n.x.walk(f)
	for _, e := range n.list {
		e.walk(f)
	}
}
func (n fbetween) walk(f func(fnode)) { f(n); n.x.walk(f); n.lo.walk(f); n.hi.walk(f) }
func (n flike) walk(f func(fnode))    { f(n); n.x.walk(f); n.pat.walk(f) }
