package scope

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Scope is what one caller may read. Get one from Policy.ForUser,
// Policy.Local, Policy.Authenticate or SingleUser; it is immutable and safe
// for concurrent use. A nil *Scope reads nothing.
//
// Names are exact database names (as a schema snapshot spells them);
// patterns match them case-insensitively. An empty schema means the
// datasource's default schema ("main" for SQLite and DuckDB, "public" for
// PostgreSQL).
type Scope struct {
	p         *Policy
	user      string
	all       bool // single-user: everything
	roles     []*role
	roleNames []string // as configured, unknown ones included
	attrs     map[string]any
}

// SingleUser returns the scope of a server without roles: it reads every
// table and column, with no row filters.
func SingleUser() *Scope { return &Scope{all: true} }

// Identity describes the caller, for logs, traces and cache keys.
type Identity struct {
	User       string   `json:"user,omitempty"` // "" for an anonymous single user
	Roles      []string `json:"roles,omitempty"`
	SingleUser bool     `json:"single_user,omitempty"`
}

// String is "user (role, role)", "single user" or "nobody".
func (id Identity) String() string {
	switch {
	case id.SingleUser && id.User == "":
		return "single user"
	case id.SingleUser:
		return id.User + " (single user)"
	case id.User == "":
		return "nobody"
	}
	return fmt.Sprintf("%s (%s)", id.User, strings.Join(id.Roles, ", "))
}

// Identity returns who the scope belongs to.
func (s *Scope) Identity() Identity {
	if s == nil {
		return Identity{}
	}
	return Identity{User: s.user, Roles: slices.Clone(s.roleNames), SingleUser: s.all}
}

// Unrestricted reports whether the scope reads everything with no row
// filters (single-user mode): callers may skip per-name checks.
func (s *Scope) Unrestricted() bool { return s != nil && s.all }

// Attribute returns the caller's attribute name (from users[].attributes).
func (s *Scope) Attribute(name string) (any, bool) {
	if s == nil {
		return nil, false
	}
	v, ok := s.attrs[name]
	return v, ok
}

func (s *Scope) schemaOf(ds, schema string) string { return s.p.schemaOf(ds, schema) }

// Reaches reports whether the caller may read anything of datasource ds.
// Ask it before any model call; treat an unreachable datasource exactly as
// an unknown one.
func (s *Scope) Reaches(ds string) bool {
	if s == nil {
		return false
	}
	if s.all {
		return true
	}
	for _, r := range s.roles {
		if r.reaches(ds) {
			return true
		}
	}
	return false
}

// AllowTable reports whether the caller may read ds.schema.table: some
// role of theirs allows it and that role does not deny it.
func (s *Scope) AllowTable(ds, schema, table string) bool {
	if s == nil {
		return false
	}
	if s.all {
		return true
	}
	schema = s.schemaOf(ds, schema)
	for _, r := range s.roles {
		if r.table(ds, schema, table) && s.p.viewReadable(r, ds, schema, table, 0) {
			return true
		}
	}
	return false
}

// Reader returns the caller's read check on datasource ds in the shape the
// retrieval index takes (index.Allow): column "" asks about the table
// (AllowTable), else about the column (AllowColumn).
func (s *Scope) Reader(ds string) func(schema, table, column string) bool {
	return func(schema, table, column string) bool {
		if column == "" {
			return s.AllowTable(ds, schema, table)
		}
		return s.AllowColumn(ds, schema, table, column)
	}
}

// AllowColumn reports whether the caller may read the column: some role
// reads its table, allows the column and denies neither. A denied column
// is hidden from schema output and refused in plans.
func (s *Scope) AllowColumn(ds, schema, table, column string) bool {
	if s == nil {
		return false
	}
	if s.all {
		return true
	}
	schema = s.schemaOf(ds, schema)
	for _, r := range s.roles {
		if r.column(ds, schema, table, column) && s.p.viewReadable(r, ds, schema, table, 0) {
			return true
		}
	}
	return false
}

// Checker adapts the scope to planast.Access for datasource ds: pass it
// as validate.Options.Access. The validator then reports hidden tables and
// columns exactly as missing ones.
func (s *Scope) Checker(ds string) planast.Access { return checker{s: s, ds: ds} }

type checker struct {
	s  *Scope
	ds string
}

func (c checker) AllowTable(schema, table string) bool { return c.s.AllowTable(c.ds, schema, table) }
func (c checker) AllowColumn(schema, table, column string) bool {
	return c.s.AllowColumn(c.ds, schema, table, column)
}

// Datasources returns the ids the caller reaches, in the given order.
func (s *Scope) Datasources(ids []string) []string {
	var out []string
	for _, id := range ids {
		if s.Reaches(id) {
			out = append(out, id)
		}
	}
	return out
}

// FilterSnapshot returns a copy of snap holding only what the caller may
// read: hidden tables are dropped, hidden columns removed, and primary and
// foreign keys that mention anything hidden left out. Use it for schema
// description, search, retrieval, resources and prompts, so that nothing
// hidden reaches a client or a model. Profiles of visible columns are
// kept, except on tables the caller reads through a row filter: their row
// count and every column profile (samples, ranges, counts) are dropped,
// since they describe rows the caller may not see. A view's Reads keep
// only what the caller sees, and its definition is withheld when it would
// name more (definitions.go); a note read from a documentation table
// the caller does not read whole is left out (notes.go). A nil snap gives nil;
// an unrestricted scope gets snap itself.
func (s *Scope) FilterSnapshot(snap *schema.Snapshot) *schema.Snapshot {
	if snap == nil || s.Unrestricted() {
		return snap
	}
	out := snap.WithTables([]schema.Table{})
	out.Dictionaries = nil
	if !s.Reaches(snap.Datasource) {
		return out
	}
	ds := snap.Datasource
	readable, kept := s.readableDictionaries(snap) // notes.go
	out.Dictionaries = kept
	for _, t := range snap.Tables {
		if !s.AllowTable(ds, t.Schema, t.Name) {
			continue
		}
		nt := t
		s.withholdDefinition(ds, &nt)
		withholdNote(&nt.Comment, &nt.CommentFrom, readable)
		nt.Columns = nil
		// A table the caller sees through a row filter keeps no profile:
		// its row count, sample values and ranges come from every row.
		filtered := len(s.RowFilters(ds, t.Schema, t.Name)) > 0
		if filtered {
			nt.RowCount = nil
		}
		visible := map[string]bool{}
		for _, c := range t.Columns {
			if s.AllowColumn(ds, t.Schema, t.Name, c.Name) {
				if filtered {
					c.Profile = nil
				}
				withholdNote(&c.Comment, &c.CommentFrom, readable)
				nt.Columns = append(nt.Columns, c)
				visible[c.Name] = true
			}
		}
		nt.PrimaryKey = nil
		if allIn(t.PrimaryKey, visible) {
			nt.PrimaryKey = slices.Clone(t.PrimaryKey)
		}
		nt.UniqueKeys = nil
		for _, k := range t.UniqueKeys {
			// a key with a hidden column would name it
			if allIn(k, visible) {
				nt.UniqueKeys = append(nt.UniqueKeys, slices.Clone(k))
			}
		}
		nt.ForeignKeys = nil
		for _, fk := range t.ForeignKeys {
			if !allIn(fk.Columns, visible) || !s.AllowTable(ds, fk.RefSchema, fk.RefTable) {
				continue
			}
			ok := true
			for _, rc := range fk.RefColumns {
				ok = ok && s.AllowColumn(ds, fk.RefSchema, fk.RefTable, rc)
			}
			if ok {
				nt.ForeignKeys = append(nt.ForeignKeys, fk)
			}
		}
		out.Tables = append(out.Tables, nt)
	}
	return out
}

func allIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

// VisibleColumns returns the columns of t the caller may read, in table
// order.
func (s *Scope) VisibleColumns(ds string, t *planast.TableInfo) []planast.ColumnInfo {
	var out []planast.ColumnInfo
	for _, c := range t.Columns {
		if s.AllowColumn(ds, t.Schema, t.Name, c.Name) {
			out = append(out, c)
		}
	}
	return out
}
