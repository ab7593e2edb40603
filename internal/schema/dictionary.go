package schema

// Dictionary is a documentation table of the datasource: rows that name a
// table (and maybe one of its columns) and say something of it, which a
// database without COMMENT ON keeps instead (package
// internal/source/dictionary finds them by their shape). Its notes become
// the comments of what they name, marked with CommentFrom; the columns
// they were read from are kept so access to them can be checked.
type Dictionary struct {
	Schema string `json:"schema"`
	Name   string `json:"name"`
	// TableColumn names the documented table (or "table.column");
	// ColumnColumn, "" when there is none, the documented column; and
	// NoteColumn holds the note.
	TableColumn  string `json:"table_column"`
	ColumnColumn string `json:"column_column,omitempty"`
	NoteColumn   string `json:"note_column"`
}

// Relation is the table d is.
func (d Dictionary) Relation() Relation { return Relation{Schema: d.Schema, Name: d.Name} }

// Columns are the columns of d its notes were read from.
func (d Dictionary) Columns() []string {
	out := []string{d.TableColumn}
	if d.ColumnColumn != "" {
		out = append(out, d.ColumnColumn)
	}
	return append(out, d.NoteColumn)
}
