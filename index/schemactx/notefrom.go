package schemactx

import "github.com/nl2sql/nl2sql/internal/schema"

// NoteFrom is what precedes a note read from a documentation table
// (Table.CommentFrom, Column.CommentFrom): "(from data_dictionary) ", the
// table's name as plans write it; "" for the database's own comment. A
// reader then knows the note is rows of a table, which they may query,
// not the schema's declaration.
func NoteFrom(snap *schema.Snapshot, from *schema.Relation) string {
	if from == nil {
		return ""
	}
	return "(from " + planName(schema.PlanName(snap.Default(), from.Schema, from.Name)) + ") "
}
