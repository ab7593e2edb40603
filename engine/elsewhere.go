package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/planning"
	"github.com/nl2sql/nl2sql/planast"
)

// elsewhereHint is planning.ElsewhereHint over the datasources already
// open (nothing waits for one to open) and the tables the caller may read.
func (e *Engine) elsewhereHint(ctx context.Context, ds *datasource, plan *planast.Query) string {
	sc := e.caller(ctx)
	has := func(schema, table string) bool { _, ok := ds.snap.Lookup(schema, table); return ok }
	holders := func(table string) []string {
		var ids []string
		for _, id := range sc.Datasources(e.DatasourceIDs()) {
			if other, open := e.sources.Ready(id); open {
				if t, ok := other.snap.Lookup("", table); ok && sc.AllowTable(id, t.Schema, t.Name) {
					ids = append(ids, id)
				}
			}
		}
		return ids
	}
	return planning.ElsewhereHint(plan, ds.spec.ID, has, holders)
}
