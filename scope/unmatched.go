package scope

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Unmatched is an allow or deny pattern, or a row filter's table, that
// names nothing in a datasource's schema snapshot. It is almost always a
// typo, and for a deny pattern it means the data meant to be hidden stays
// readable; nl2sql doctor fails on it and serve and ask warn at start.
type Unmatched struct {
	Role    string
	Key     string // roles.<role>.deny[i], .allow[i] or .row_filters[i].table
	Pattern string
	Near    string // the closest existing name, "" when none is near
}

func (u Unmatched) String() string {
	msg := fmt.Sprintf("role %s: %s %q matches nothing in the schema", u.Role, u.Key, u.Pattern)
	if strings.Contains(u.Key, ".deny[") {
		msg += ", so it hides nothing"
	}
	if u.Near != "" {
		msg += fmt.Sprintf("; did you mean %q?", u.Near)
	}
	return msg
}

// Unmatched lists, role by role in name order, the patterns and row-filter
// tables that name snap's datasource (literally, without wildcards in the
// datasource part) but match no table or column of snap. A pattern naming
// only a datasource is the config's to check; one whose datasource part is
// a wildcard may match elsewhere and is not listed.
func (p *Policy) Unmatched(snap *schema.Snapshot) []Unmatched {
	if p == nil || snap == nil {
		return nil
	}
	ds := snap.Datasource
	var tables, columns []string
	for _, t := range snap.Tables {
		tn := ds + "." + t.Schema + "." + t.Name
		tables = append(tables, tn)
		for _, c := range t.Columns {
			columns = append(columns, tn+"."+c.Name)
		}
	}
	var out []Unmatched
	check := func(r *role, kind string, pats []pattern) {
		for i, pt := range pats {
			if len(pt.parts) < 3 || strings.ContainsAny(pt.parts[0], "*?") || !pt.coversDatasource(ds) || matchesSnapshot(pt, snap) {
				continue
			}
			cands := tables
			if pt.column() {
				cands = columns
			}
			out = append(out, Unmatched{Role: r.name, Key: fmt.Sprintf("roles.%s.%s[%d]", r.name, kind, i),
				Pattern: pt.raw, Near: planast.Nearest(pt.raw, cands)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.roles)) {
		r := p.roles[name]
		check(r, "allow", r.allow)
		check(r, "deny", r.deny)
		for _, f := range r.filters {
			if f.ds != ds {
				continue
			}
			if _, ok := snap.Lookup(f.schema, f.table); ok {
				continue
			}
			raw := f.ds + "." + f.schema + "." + f.table
			out = append(out, Unmatched{Role: r.name, Key: fmt.Sprintf("roles.%s.row_filters[%d].table", r.name, f.index),
				Pattern: raw, Near: planast.Nearest(raw, tables)})
		}
	}
	return out
}

// matchesSnapshot reports whether a 3- or 4-part pattern matches some
// table (or column) of snap.
func matchesSnapshot(pt pattern, snap *schema.Snapshot) bool {
	for _, t := range snap.Tables {
		if !pt.globs[1].match(t.Schema) || !pt.globs[2].match(t.Name) {
			continue
		}
		if !pt.column() {
			return true
		}
		for _, c := range t.Columns {
			if pt.globs[3].match(c.Name) {
				return true
			}
		}
	}
	return false
}
