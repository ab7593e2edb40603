package scope

import (
	"slices"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// A note read from a documentation table (schema.Dictionary) is that
// table's data: a caller who may not read the table, or reads it through
// a row filter, or may not read one of the columns the notes were read
// from (the one naming tables, the one naming columns, the note), would
// learn its rows from the schema. The caller's copy of the snapshot keeps
// only the notes of documentation tables they read whole.

// readableDictionaries are the documentation tables of snap the caller
// reads whole.
func (s *Scope) readableDictionaries(snap *schema.Snapshot) (map[schema.Relation]bool, []schema.Dictionary) {
	ds := snap.Datasource
	readable := map[schema.Relation]bool{}
	var kept []schema.Dictionary
	for _, d := range snap.Dictionaries {
		ok := s.AllowTable(ds, d.Schema, d.Name) && len(s.RowFilters(ds, d.Schema, d.Name)) == 0
		for _, c := range d.Columns() {
			ok = ok && s.AllowColumn(ds, d.Schema, d.Name, c)
		}
		if ok {
			readable[d.Relation()] = true
			kept = append(kept, d)
		}
	}
	return readable, kept
}

// withholdNote clears a comment read from a documentation table not in
// readable.
func withholdNote(comment *string, from **schema.Relation, readable map[schema.Relation]bool) {
	if *from != nil && !readable[**from] {
		*comment, *from = "", nil
	}
}

// SharedNotes is snap as what serves every caller alike may hold it (the
// retrieval index, built once per datasource): without the notes of the
// documentation tables some configured role may not read whole. A note's
// words move a column's rank and decide which words of a question are
// held, so a caller denied the table would learn them from search and from
// the words ask says nothing holds. snap itself when nothing is dropped.
func (p *Policy) SharedNotes(snap *schema.Snapshot) *schema.Snapshot {
	if snap == nil || !p.Secured() || len(snap.Dictionaries) == 0 {
		return snap
	}
	shared := map[schema.Relation]bool{}
	for _, d := range snap.Dictionaries {
		shared[d.Relation()] = true
	}
	for _, r := range p.roles {
		readable, _ := (&Scope{p: p, roles: []*role{r}}).readableDictionaries(snap)
		for rel := range shared {
			if !readable[rel] {
				delete(shared, rel)
			}
		}
	}
	if len(shared) == len(snap.Dictionaries) {
		return snap
	}
	tables := make([]schema.Table, len(snap.Tables))
	for i, t := range snap.Tables {
		withholdNote(&t.Comment, &t.CommentFrom, shared)
		t.Columns = slices.Clone(t.Columns)
		for j := range t.Columns {
			withholdNote(&t.Columns[j].Comment, &t.Columns[j].CommentFrom, shared)
		}
		tables[i] = t
	}
	return snap.WithTables(tables)
}
