package scope

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// ErrRowFilter is wrapped by ApplyRowFilters' errors (a *FilterError): a
// row filter applies to a table the plan reads but cannot be applied for
// this caller (an attribute is missing, a filter column is hidden or
// missing, the table has no visible column). The plan must then be
// refused: running it unfiltered would show rows the caller may not read.
// Messages name only the table as the plan wrote it and attribute names;
// the FilterError's Problem names the filter and its fault for the
// operator.
var ErrRowFilter = errors.New("row filter cannot be applied")

// ApplyRowFilters returns plan with every read of a row-filtered table
// replaced by a filtered derived table, for the caller sc on datasource ds:
// a From item {"table": "Customer", "alias": "c"} becomes
//
//	{"subquery": {"select": [<each visible column of Customer, by name>],
//	              "from": [{"schema": "main", "table": "Customer", "alias": "Customer"}],
//	              "where": <the filter, :names bound to sc's attributes>},
//	 "alias": "c"}
//
// at any depth: top level, joins, derived tables, CTE bodies, set
// operation branches and subqueries in expressions. A name that a CTE in
// scope defines is the CTE, not the table, and is left alone; the inner
// read is schema-qualified, so no CTE can shadow it. Tables the catalog
// lacks or the caller may not read are left for the validator to refuse.
//
// Run it before validate.Plan (with sc.Checker(ds)) on every plan: a
// generated one, one a client supplied, one from the plan cache. It never
// modifies plan; without filters for this caller it returns plan itself.
// A filter that cannot be applied is a *FilterError (wrapping ErrRowFilter).
func ApplyRowFilters(plan *planast.Query, ds string, sc *Scope, cat planast.Catalog) (*planast.Query, error) {
	if plan == nil || sc.Unrestricted() || !sc.hasFilters(ds) {
		return plan, nil
	}
	cp, err := planast.Decode(plan.Canonical(), planast.Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		return nil, err
	}
	rw := &rewriter{ds: ds, sc: sc, cat: cat}
	rw.query(cp, nil)
	if rw.err != nil {
		return nil, rw.err
	}
	return cp, nil
}

// hasFilters reports whether any of the caller's roles has a filter on ds.
func (s *Scope) hasFilters(ds string) bool {
	if s == nil {
		return false
	}
	for _, r := range s.roles {
		for _, f := range r.filters {
			if f.ds == ds {
				return true
			}
		}
	}
	return false
}

type rewriter struct {
	ds  string
	sc  *Scope
	cat planast.Catalog
	err error
}

// ctes is the set of CTE names visible at a point (lower-cased).
type ctes struct {
	parent *ctes
	names  map[string]bool
}

func (c *ctes) has(name string) bool {
	for ; c != nil; c = c.parent {
		if c.names[strings.ToLower(name)] {
			return true
		}
	}
	return false
}

func (rw *rewriter) query(q *planast.Query, env *ctes) {
	if q == nil || rw.err != nil {
		return
	}
	if len(q.With) > 0 {
		// Every name of this WITH counts as a CTE everywhere inside it: a
		// body naming a later CTE is refused by the validator anyway.
		env = &ctes{parent: env, names: map[string]bool{}}
		for _, c := range q.With {
			env.names[strings.ToLower(c.Name)] = true
		}
		for i := range q.With {
			rw.query(q.With[i].Query, env)
		}
	}
	rw.core(q, env)
	for i := range q.SetOps {
		rw.query(q.SetOps[i].Query, env)
	}
}

// core rewrites one SELECT's sources and the subqueries of its expressions.
func (rw *rewriter) core(q *planast.Query, env *ctes) {
	for i := range q.From {
		f := &q.From[i]
		if f.Subquery != nil {
			rw.query(f.Subquery, env)
			continue
		}
		if f.Schema == "" && env.has(f.Table) {
			continue
		}
		rw.from(f)
	}
	for _, e := range q.OwnExprs() {
		if e == nil {
			continue
		}
		planast.Inspect(e, func(n planast.Node) bool {
			if sub, ok := n.(*planast.Query); ok {
				rw.query(sub, env)
				return false
			}
			return true
		})
	}
}

// from replaces a stored-table source that has a filter.
func (rw *rewriter) from(f *planast.From) {
	t, ok := rw.cat.LookupTable(f.Schema, f.Table)
	if !ok || !rw.sc.AllowTable(rw.ds, t.Schema, t.Name) {
		return
	}
	filters := rw.sc.RowFilters(rw.ds, t.Schema, t.Name)
	if len(filters) == 0 {
		return
	}
	fail := func(format string, args ...any) {
		if rw.err == nil {
			rw.err = &FilterError{Table: f.Table, Msg: fmt.Sprintf(format, args...), Problem: rw.sc.problem(rw.ds, t)}
		}
	}
	cols := rw.sc.VisibleColumns(rw.ds, t)
	if len(cols) == 0 {
		fail("the table has no column you may read")
		return
	}
	inner := &planast.Query{From: []planast.From{{Schema: t.Schema, Table: t.Name, Alias: t.Name}}}
	for _, c := range cols {
		inner.Select = append(inner.Select, planast.SelectItem{Expr: &planast.Column{Table: t.Name, Column: c.Name}, Alias: c.Name})
	}
	for _, flt := range filters {
		for _, name := range flt.Columns() {
			c, ok := t.Column(name)
			if !ok || !rw.sc.AllowColumn(rw.ds, t.Schema, t.Name, c.Name) {
				fail("the filter reads a column that is missing or hidden from you; ask an administrator")
				return
			}
		}
		e, err := flt.Expr(rw.sc, t.Name)
		if err != nil {
			fail("%v", err)
			return
		}
		if inner.Where == nil {
			inner.Where = e
		} else {
			inner.Where = &planast.Binary{Op: planast.OpAnd, Left: inner.Where, Right: e}
		}
	}
	*f = planast.From{Subquery: inner, Alias: f.Alias}
}
