package semantic

import (
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Allow answers whether the caller may read a table (column "") or a
// column; engine passes scope.Scope's checks. Hidden things are left out
// of what a Layer shows, never reported as denied.
type Allow func(schema, table, column string) bool

// Visible returns the part of l the caller may see: descriptions of
// visible tables and columns, metrics and filters whose table and every
// column they read are visible, relationships with both ends visible.
// When nothing had to be left out the copy keeps Raw (the file itself);
// otherwise Raw is nil, since the file names what the caller may not see.
func (l *Layer) Visible(allow Allow) *Layer {
	out := &Layer{File: l.File, Fiscal: l.Fiscal}
	dropped := false
	for _, t := range l.Tables {
		if !allow(t.Schema, t.Name, "") {
			dropped = true
			continue
		}
		vt := t
		vt.Columns = slices.DeleteFunc(slices.Clone(t.Columns), func(c Column) bool { return !allow(t.Schema, t.Name, c.Name) })
		dropped = dropped || len(vt.Columns) < len(t.Columns)
		out.Tables = append(out.Tables, vt)
	}
	for _, d := range l.Metrics {
		if d.visible(allow) {
			out.Metrics = append(out.Metrics, d)
		} else {
			dropped = true
		}
	}
	for _, d := range l.Filters {
		if d.visible(allow) {
			out.Filters = append(out.Filters, d)
		} else {
			dropped = true
		}
	}
	for _, r := range l.Relationships {
		ft, fc, _ := strings.Cut(r.From, ".")
		tt, tc, _ := strings.Cut(r.To, ".")
		if allow("", ft, fc) && allow("", tt, tc) {
			out.Relationships = append(out.Relationships, r)
		} else {
			dropped = true
		}
	}
	if !dropped {
		out.raw = l.raw
	}
	out.index()
	return out
}

// visible reports whether d's tables (its table and join_tables) and every
// column it reads of them (subqueries included) may be read.
func (d *Definition) visible(allow Allow) bool {
	if !allow(d.Schema, d.Table, "") {
		return false
	}
	for _, j := range d.JoinTables {
		if !allow(d.Schema, j, "") {
			return false
		}
	}
	tableOf := func(alias string) (string, bool) { // the definition's tables are aliased by their names
		if strings.EqualFold(alias, d.Table) {
			return d.Table, true
		}
		for _, j := range d.JoinTables {
			if strings.EqualFold(alias, j) {
				return j, true
			}
		}
		return "", false
	}
	if d.TimeColumn != "" {
		t, c, _ := strings.Cut(d.TimeColumn, ".")
		if !allow("", t, c) {
			return false
		}
	}
	ok := true
	planast.Inspect(d.Expr, func(n planast.Node) bool {
		if c, isCol := n.(*planast.Column); isCol {
			if t, mine := tableOf(c.Table); mine && !allow(d.Schema, t, c.Column) {
				ok = false
			}
		}
		if q, isQuery := n.(*planast.Query); isQuery {
			for _, f := range q.From {
				if f.Table != "" && !allow(f.Schema, f.Table, "") {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// For returns the table descriptions and the metrics and filters that
// concern the named tables (any case), in file order.
func (l *Layer) For(tables []string) ([]Table, []Definition) {
	in := func(name string) bool {
		return slices.ContainsFunc(tables, func(t string) bool { return strings.EqualFold(t, name) })
	}
	var ts []Table
	for _, t := range l.Tables {
		if in(t.Name) {
			ts = append(ts, t)
		}
	}
	var ds []Definition
	for _, d := range slices.Concat(l.Metrics, l.Filters) {
		if in(d.Table) {
			ds = append(ds, d)
		}
	}
	return ts, ds
}
