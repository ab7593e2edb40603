package warnings

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// parentLink is a way from the rows of a table to the one row of another
// each belongs to: a declared foreign key, or a column named as the
// other's key that no foreign key declares (byName: namedParents).
type parentLink struct {
	fk     schema.ForeignKey
	byName bool
}

// parentLinks are t's ways to the tables its rows belong to: its declared
// foreign keys (keysByNulls), then its links by name (namedParents), each
// kind the one whose columns are NULL in the fewest rows first.
func parentLinks(snap *schema.Snapshot, t *schema.Table) []parentLink {
	var out []parentLink
	for _, fk := range keysByNulls(t) {
		out = append(out, parentLink{fk: fk})
	}
	if named := namedParents(snap)[t]; len(named) > 0 {
		by := *t // a shallow copy: keysByNulls orders a table's foreign keys
		by.ForeignKeys = named
		for _, fk := range keysByNulls(&by) {
			out = append(out, parentLink{fk: fk, byName: true})
		}
	}
	return out
}

// linksByName holds namedParents per snapshot, keyed weakly: a snapshot
// is served for many calls, and a catalog of a few thousand tables takes
// tens of milliseconds to infer; a snapshot no longer served drops its
// entry (a caller's filtered copy is its own snapshot, inferred over what
// that caller sees).
var linksByName sync.Map // weak.Pointer[schema.Snapshot] → map[*schema.Table][]schema.ForeignKey

// namedParents maps each table of snap to its links by name: the joins
// package's inferred joins (joins.Graph, which infers them for a schema
// that declares no foreign key, or for a table no declared key touches)
// that make one column of the table name the key of exactly one other
// table, a key no two of its rows share: a declared single-column
// primary or unique key, or the key joins.Graph infers when profiling
// found it unique and never NULL. DuckDB and SQLite schemas loaded from
// files often declare no foreign key at all, and feature_events.ws_id
// named workspaces.ws_id, the primary key of the table flagging internal
// workspaces, with nothing declaring it: a figure over the events counted
// the staff workspaces' events with nothing said. A column that is its
// own table's key (two tables keyed alike), and one naming the keys of
// several tables, belongs to no one table.
func namedParents(snap *schema.Snapshot) map[*schema.Table][]schema.ForeignKey {
	if snap == nil {
		return nil
	}
	key := weak.Make(snap)
	if v, ok := linksByName.Load(key); ok {
		return v.(map[*schema.Table][]schema.ForeignKey)
	}
	links := inferParents(snap)
	if _, loaded := linksByName.LoadOrStore(key, links); !loaded {
		runtime.AddCleanup(snap, func(k weak.Pointer[schema.Snapshot]) { linksByName.Delete(k) }, key)
	}
	return links
}

// inferParents is namedParents, computed.
func inferParents(snap *schema.Snapshot) map[*schema.Table][]schema.ForeignKey {
	g, keys, _ := joins.Graph(snap)
	out := map[*schema.Table][]schema.ForeignKey{}
	for i := range snap.Tables {
		t := &snap.Tables[i]
		type target struct {
			table int
			ref   string
		}
		named := map[string][]target{}
		var order []string
		for _, e := range g[i] {
			if !e.Inferred || len(e.Cols) != 1 || e.To == i {
				continue
			}
			c, p := e.Cols[0], &snap.Tables[e.To]
			if declaredKeyColumn(t, c) || ownKey(t, keys[i], c) || p.Kind == schema.KindView || !uniqueKey(p, keys[e.To], e.RefCols[0]) {
				continue
			}
			if _, ok := named[c]; !ok {
				order = append(order, c)
			}
			if tg := (target{e.To, e.RefCols[0]}); !slices.Contains(named[c], tg) {
				named[c] = append(named[c], tg)
			}
		}
		for _, c := range order {
			if len(named[c]) != 1 {
				continue // the key of several tables: which one is a guess
			}
			p := &snap.Tables[named[c][0].table]
			out[t] = append(out[t], schema.ForeignKey{Columns: []string{c}, RefSchema: p.Schema, RefTable: p.Name, RefColumns: []string{named[c][0].ref}})
		}
	}
	return out
}

// declaredKeyColumn reports whether a declared foreign key of t holds
// column c: what it refers to is declared.
func declaredKeyColumn(t *schema.Table, c string) bool {
	return slices.ContainsFunc(t.ForeignKeys, func(fk schema.ForeignKey) bool { return slices.Contains(fk.Columns, c) })
}

// ownKey reports whether c is t's own one-column key, declared or as
// joins.Graph inferred it (key, column positions).
func ownKey(t *schema.Table, key []int, c string) bool {
	if len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c {
		return true
	}
	return len(key) == 1 && t.Columns[key[0]].Name == c
}

// uniqueKey reports whether column c of p is a key no two of its rows
// share: its declared one-column primary or unique key, or its key as
// joins.Graph inferred it (key, column positions) when profiling found it
// distinct in every row and never NULL.
func uniqueKey(p *schema.Table, key []int, c string) bool {
	if len(p.PrimaryKey) == 1 && p.PrimaryKey[0] == c {
		return true
	}
	if slices.ContainsFunc(p.UniqueKeys, func(k []string) bool { return len(k) == 1 && k[0] == c }) {
		return true
	}
	if len(p.PrimaryKey) > 0 || len(key) != 1 || p.Columns[key[0]].Name != c {
		return false
	}
	prof := p.Columns[key[0]].Profile
	return p.RowCount != nil && *p.RowCount > 0 && prof != nil && prof.NullFraction == 0 && prof.DistinctCount == *p.RowCount
}

// byNameSaid says the hops of a way to a parent that follow a link by
// name (parentLink.byName; named: joinsSaid of each), for the warning to
// say no foreign key declares them: ", linked by name: no foreign key
// declares feature_events.ws_id to workspaces.ws_id"; "" when every hop is
// declared.
func byNameSaid(named []string) string {
	if len(named) == 0 {
		return ""
	}
	return ", linked by name: no foreign key declares " + strings.Join(named, ", nor ")
}
