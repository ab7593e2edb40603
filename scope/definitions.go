package scope

import "github.com/nl2sql/nl2sql/internal/schema"

// A view's definition names what it reads. A role that reads a view only
// because allow names it (views.go) may be denied the tables it reads, or
// some of their columns: its definition would show those names, so the
// caller's copy of the snapshot keeps it only when some role of the
// caller reads the view and everything it names whole, as it would
// without that grant (an unrestricted scope keeps every definition).

// withholdDefinition clears t's definition, saying so, unless some role
// of the caller reads ds's view t and everything it reads whole, and
// keeps of its Reads only what the caller may see.
func (s *Scope) withholdDefinition(ds string, t *schema.Table) {
	if len(t.Reads) == 0 {
		return
	}
	if t.Definition != "" && !s.readsWhole(ds, t) {
		t.Definition, t.DefinitionWithheld = "", true
	}
	var reads []schema.Relation
	for _, rel := range t.Reads {
		if s.AllowTable(ds, rel.Schema, rel.Name) {
			reads = append(reads, rel)
		}
	}
	t.Reads = reads
}

// readsWhole reports whether some role of the caller reads the view t and
// each relation it reads whole (views among them readable by the view
// rule), the view's own grant aside.
func (s *Scope) readsWhole(ds string, t *schema.Table) bool {
	sch := s.schemaOf(ds, t.Schema)
	for _, r := range s.roles {
		if !r.table(ds, sch, t.Name) {
			continue
		}
		if _, lacking := s.p.firstLacking(r, ds, t.Reads, 0); !lacking {
			return true
		}
	}
	return false
}
