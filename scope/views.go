package scope

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// A view reads its tables whatever a role may read of them: a role denied
// invoices read the invoice sums of a view over it, and a role whose row
// filter keeps two shipments counted six through a view of shipments. So
// a view is readable only when everything it reads (views through views
// included) the same role reads whole: allowed, no column denied or left
// out of its allow, no row filter. A role that means to show a view over
// what it hides names the view itself in allow, without wildcards
// ("ds.schema.view"): that grant is the view's own.

// views holds each datasource's view dependencies, set from its snapshot
// (SetViews); keys are lower-case "schema\x00name".
type views struct {
	mu sync.RWMutex
	ds map[string]map[string][]schema.Relation
}

// SetViews records what the views of ds read, from its snapshot
// (schema.Table.Reads); the engine calls it whenever it opens or reopens
// the datasource. A nil policy ignores it.
func (p *Policy) SetViews(ds string, snap *schema.Snapshot) {
	if p == nil || snap == nil {
		return
	}
	m := map[string][]schema.Relation{}
	for _, t := range snap.Tables {
		if len(t.Reads) > 0 {
			m[viewKey(t.Schema, t.Name)] = t.Reads
		}
	}
	p.views.mu.Lock()
	defer p.views.mu.Unlock()
	if p.views.ds == nil {
		p.views.ds = map[string]map[string][]schema.Relation{}
	}
	p.views.ds[ds] = m
}

func viewKey(schemaName, name string) string {
	return strings.ToLower(schemaName) + "\x00" + strings.ToLower(name)
}

// reads is what the view ds.schema.name reads, nil for a table.
func (p *Policy) reads(ds, schemaName, name string) []schema.Relation {
	p.views.mu.RLock()
	defer p.views.mu.RUnlock()
	m := p.views.ds[ds]
	if len(m) == 0 { // no views: no key to build on every access check
		return nil
	}
	return m[viewKey(schemaName, name)]
}

// viewReadable reports whether role r may read the view (or table)
// ds.schema.name through what it reads.
func (p *Policy) viewReadable(r *role, ds, schemaName, name string, depth int) bool {
	_, hidden := p.viewLacks(r, ds, schemaName, name, depth)
	return !hidden
}

// viewLacks is the first relation the view (or table) ds.schema.name
// reads, views through views included, that role r does not read whole;
// false when there is none and r may read it. depth bounds a cycle (the
// view then lacks itself).
func (p *Policy) viewLacks(r *role, ds, schemaName, name string, depth int) (schema.Relation, bool) {
	reads := p.reads(ds, schemaName, name)
	if len(reads) == 0 || r.namesExactly(ds, schemaName, name) {
		return schema.Relation{}, false
	}
	if depth > 16 {
		return schema.Relation{Schema: schemaName, Name: name}, true
	}
	return p.firstLacking(r, ds, reads, depth)
}

// firstLacking is the first of reads (views through views included)
// that role r does not read whole; false when r reads all of them whole.
func (p *Policy) firstLacking(r *role, ds string, reads []schema.Relation, depth int) (schema.Relation, bool) {
	for _, rel := range reads {
		s := p.schemaOf(ds, rel.Schema)
		if r.restricted(ds, s, rel.Name) {
			return schema.Relation{Schema: s, Name: rel.Name}, true
		}
		if lack, hidden := p.viewLacks(r, ds, s, rel.Name, depth+1); hidden {
			return lack, true
		}
	}
	return schema.Relation{}, false
}

// HiddenView is a view a role's patterns allow but the role may not read
// by the view rule: Lacks is the first relation the view reads that the
// role does not read whole.
type HiddenView struct {
	Role  string
	View  schema.Relation
	Lacks schema.Relation
}

// HiddenViews lists, role by role in name order and view by view in
// snapshot order, the views of snap that a role's allow covers and its
// deny leaves, but that the role may not read because of what they read;
// an administrator who misses such a view learns here which table to
// grant whole, or that the view is to be named in allow. It records snap's
// views first, as the engine does when it opens the datasource (SetViews).
func (p *Policy) HiddenViews(snap *schema.Snapshot) []HiddenView {
	if !p.Secured() || snap == nil {
		return nil
	}
	p.SetViews(snap.Datasource, snap)
	var out []HiddenView
	for _, name := range slices.Sorted(maps.Keys(p.roles)) {
		r := p.roles[name]
		for _, t := range snap.Tables {
			if len(t.Reads) == 0 || !r.table(snap.Datasource, t.Schema, t.Name) {
				continue
			}
			if lack, hidden := p.viewLacks(r, snap.Datasource, t.Schema, t.Name, 0); hidden {
				out = append(out, HiddenView{Role: name, View: schema.Relation{Schema: t.Schema, Name: t.Name}, Lacks: lack})
			}
		}
	}
	return out
}

// restricted reports whether role r reads less than all of the table:
// not at all, some columns denied or only some allowed, or a row filter.
func (r *role) restricted(ds, schemaName, table string) bool {
	if !r.table(ds, schemaName, table) || len(r.filtersFor(ds, schemaName, table)) > 0 {
		return true
	}
	for _, d := range r.deny {
		if d.tableOf(ds, schemaName, table) {
			return true
		}
	}
	for _, a := range r.allow {
		if a.table(ds, schemaName, table) {
			return false
		}
	}
	return true // allowed by column patterns alone
}

// namesExactly reports whether an allow pattern of r names the table
// itself, with no wildcard.
func (r *role) namesExactly(ds, schemaName, table string) bool {
	for _, a := range r.allow {
		if len(a.parts) == 3 && !strings.ContainsAny(a.raw, "*?") && a.table(ds, schemaName, table) {
			return true
		}
	}
	return false
}
