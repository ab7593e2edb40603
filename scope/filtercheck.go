package scope

import (
	"fmt"
	"maps"
	"slices"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// FilterProblem is why one row filter of a role cannot be applied to its
// table: it reads a column the table lacks (usually a typo) or the role may
// not read, or it binds an attribute that a user holding the role has no
// usable value for. Every query of the table by such a user is then
// refused with ACCESS_DENIED (running it unfiltered would show rows they
// may not read), so nl2sql doctor fails on it, serve and ask warn at
// start, and the engine logs it at each refusal. It names the table's
// columns: it is for the operator, never for the caller.
type FilterProblem struct {
	Role  string
	Key   string // roles.<role>.row_filters[i]
	Table string // datasource.schema.table, as configured
	Where string
	// Column is a column the filter reads that the table lacks (Near is
	// the closest it has, "" when none is near) or, when Hidden, that the
	// role may not read.
	Column string
	Near   string
	Hidden bool
	// Attribute is a :name the filter binds that User has no value for,
	// or (BadValue set) a value that is not a string, number or boolean.
	Attribute string
	User      string
	BadValue  string
}

func (p FilterProblem) String() string {
	msg := fmt.Sprintf("role %s: %s (table %s, where %q) ", p.Role, p.Key, p.Table, p.Where)
	switch {
	case p.Column != "" && p.Hidden:
		msg += fmt.Sprintf("reads column %q, which the role may not read", p.Column)
	case p.Column != "":
		msg += fmt.Sprintf("reads column %q, which the table does not have", p.Column)
		if p.Near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", p.Near)
		}
	case p.BadValue != "":
		msg += fmt.Sprintf("binds :%s, but user %s's attribute %s is %s, not a string, number or boolean", p.Attribute, p.User, p.Attribute, p.BadValue)
	default:
		msg += fmt.Sprintf("binds :%s, but user %s has no attribute %s (set it in the user's attributes, or from the token's claims)", p.Attribute, p.User, p.Attribute)
	}
	return msg + "; every query of the table by a user holding the role is refused"
}

// FilterProblems lists, role by role in name order, the row filters on
// snap's datasource that cannot be applied: for each a column the filter
// reads that the table lacks or the role may not read, and each static
// user (by name) holding the role who lacks an attribute the filter binds
// or holds one of the wrong type. Filters whose table snap lacks are
// Unmatched's; a role that does not read the table never applies its
// filter, and a user with another role reading every row of it is not
// filtered there. Callers authenticated by token bring their attributes
// from claims: only the refusal can check theirs.
func (p *Policy) FilterProblems(snap *schema.Snapshot) []FilterProblem {
	if p == nil || snap == nil {
		return nil
	}
	ds := snap.Datasource
	var out []FilterProblem
	for _, name := range slices.Sorted(maps.Keys(p.roles)) {
		r := p.roles[name]
		for _, f := range r.filters {
			if f.ds != ds {
				continue
			}
			t, ok := snap.LookupTable(f.schema, f.table)
			if !ok || !r.table(ds, t.Schema, t.Name) {
				continue
			}
			out = append(out, f.columnProblems(r, t, func(c string) bool { return r.column(ds, t.Schema, t.Name, c) })...)
			for _, un := range slices.Sorted(maps.Keys(p.users)) {
				u := p.users[un]
				if !slices.Contains(u.Roles, r.name) {
					continue
				}
				s, _ := p.ForUser(un)
				if len(s.RowFilters(ds, t.Schema, t.Name)) == 0 {
					continue
				}
				out = append(out, f.attributeProblems(r, s)...)
			}
		}
	}
	return out
}

// problem is the first reason the caller's filters on t cannot be applied
// (nil when each of them can): the refusal's account for the operator.
func (s *Scope) problem(ds string, t *planast.TableInfo) *FilterProblem {
	if s == nil || s.all {
		return nil
	}
	for _, r := range s.roles {
		if !r.table(ds, t.Schema, t.Name) {
			continue
		}
		for _, f := range r.filtersFor(ds, t.Schema, t.Name) {
			ps := f.columnProblems(r, t, func(c string) bool { return s.AllowColumn(ds, t.Schema, t.Name, c) })
			ps = append(ps, f.attributeProblems(r, s)...)
			if len(ps) > 0 {
				return &ps[0]
			}
		}
	}
	return nil
}

func (f *rowFilter) base(r *role) FilterProblem {
	return FilterProblem{Role: r.name, Key: fmt.Sprintf("roles.%s.row_filters[%d]", r.name, f.index),
		Table: f.ds + "." + f.schema + "." + f.table, Where: f.where}
}

// columnProblems: each column the filter reads that t lacks, or that
// canRead refuses, with the closest column t has.
func (f *rowFilter) columnProblems(r *role, t *planast.TableInfo, canRead func(string) bool) []FilterProblem {
	var out []FilterProblem
	for _, name := range (Filter{expr: f.expr}).Columns() {
		p := f.base(r)
		p.Column = name
		c, ok := t.Column(name)
		switch {
		case !ok:
			var names []string
			for _, c := range t.Columns {
				names = append(names, c.Name)
			}
			p.Near = planast.Nearest(name, names)
		case !canRead(c.Name):
			p.Hidden = true
		default:
			continue
		}
		out = append(out, p)
	}
	return out
}

// attributeProblems: each :name the filter binds that s lacks, or holds
// as a value no literal can carry.
func (f *rowFilter) attributeProblems(r *role, s *Scope) []FilterProblem {
	var out []FilterProblem
	for _, name := range (Filter{expr: f.expr}).Params() {
		p := f.base(r)
		p.Attribute, p.User = name, s.user
		v, ok := s.Attribute(name)
		if ok {
			if _, err := literalOf(v); err == nil {
				continue
			}
			p.BadValue = fmt.Sprintf("%T", v)
		}
		out = append(out, p)
	}
	return out
}

// FilterError is ApplyRowFilters' error (it wraps ErrRowFilter). Error
// is what the caller may be told: the table as the plan wrote it and the
// kind of fault, no column of the table. Problem, when one filter is at
// fault, is the operator's account (role, filter, the missing column or
// attribute), for logs and traces only.
type FilterError struct {
	Table   string
	Msg     string
	Problem *FilterProblem
}

func (e *FilterError) Error() string {
	return fmt.Sprintf("%v on %q: %s", ErrRowFilter, e.Table, e.Msg)
}

func (e *FilterError) Unwrap() error { return ErrRowFilter }

// OperatorDetail is the account for the server's operator (a trace, the
// log), "" when no single filter is at fault.
func (e *FilterError) OperatorDetail() string {
	if e.Problem == nil {
		return ""
	}
	return e.Problem.String()
}
