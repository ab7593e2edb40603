package schemactx

import "github.com/nl2sql/nl2sql/internal/schema"

// TableNames are the names of snap's tables as SchemaContext lists them,
// in its order: what a context holds, read from the snapshot it was
// written from, not parsed back from the text, where a datasource adds
// lines of its own (the semantic layer's JSON lines).
func TableNames(snap *schema.Snapshot) []string {
	out := []string{}
	for _, t := range sortedTables(snap) {
		out = append(out, snap.PlanName(&t))
	}
	return out
}
