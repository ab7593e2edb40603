package source

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
)

// ViewReads sets the Reads of snap's view named (schemaName, name) from
// its definition's SQL: every other relation of snap whose name the text
// holds as a whole word, any case, however it is quoted ("Order Details",
// [Order Details], `x`). A name that only appears elsewhere (a column or
// a comment called as a table) adds a relation the view may not read:
// for access, reading too much into a view hides it, reading too little
// would let it show what a role may not read.
func ViewReads(snap *schema.Snapshot, schemaName, name, sql string) {
	view := findView(snap, schemaName, name)
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

// ViewDefinition sets the Definition of snap's view named (schemaName,
// name) from the statement or query the engine reports for it: the query
// after CREATE VIEW … AS (the first AS outside parentheses; a column
// list is inside them), without a final ';', cut to
// schema.MaxDefinitionBytes. Text that does not scan is kept whole, its
// header too: it is shown as data, never run.
func ViewDefinition(snap *schema.Snapshot, schemaName, name, sql string) {
	if view := findView(snap, schemaName, name); view != nil {
		view.Definition = planast.Truncate(viewQuery(sql), schema.MaxDefinitionBytes)
	}
}

// viewQuery is sql without a leading CREATE … AS and a final ';'.
func viewQuery(sql string) string {
	sql = strings.TrimSpace(sql)
	toks, err := sqlscan.ScanSQLite(sql)
	if err != nil || len(toks) == 0 {
		return sql
	}
	if last := toks[len(toks)-1]; last.Kind == sqlscan.Op && last.Text == ";" {
		sql = strings.TrimSpace(sql[:last.Start])
	}
	if !toks[0].Is("CREATE") {
		return sql
	}
	if as := sqlscan.TopLevel(toks, "AS"); as >= 0 {
		return strings.TrimSpace(sql[min(toks[as].End, len(sql)):])
	}
	return sql
}

// findView is snap's view named (schemaName, name), nil when none.
func findView(snap *schema.Snapshot, schemaName, name string) *schema.Table {
	for i := range snap.Tables {
		if t := &snap.Tables[i]; t.Schema == schemaName && t.Name == name {
			return t
		}
	}
	return nil
}
