package source

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// ViewReads sets the Reads of snap's view named (schemaName, name) from
// its definition's SQL: every other relation of snap whose name the text
// holds as a whole word, any case, however it is quoted ("Order Details",
// [Order Details], `x`). A name that only appears elsewhere (a column or
// a comment called as a table) adds a relation the view may not read:
// for access, reading too much into a view hides it, reading too little
// would let it show what a role may not read.
func ViewReads(snap *schema.Snapshot, schemaName, name, sql string) {
	var view *schema.Table
	for i := range snap.Tables {
		if t := &snap.Tables[i]; t.Schema == schemaName && t.Name == name {
			view = t
		}
	}
	if view == nil {
		return
	}
	text := strings.ToLower(sql)
	view.Reads = nil
	for _, t := range snap.Tables {
		if t.Schema == schemaName && t.Name == name {
			continue
		}
		if sqlscan.ContainsWord(text, strings.ToLower(t.Name)) {
			view.Reads = append(view.Reads, schema.Relation{Schema: t.Schema, Name: t.Name})
		}
	}
}
