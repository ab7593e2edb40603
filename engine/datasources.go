package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// DatasourceInfo describes one configured datasource for listing.
type DatasourceInfo struct {
	ID          string `json:"id"`
	Engine      string `json:"engine"`
	Description string `json:"description"`
	// Tables and Views count the tables and the views apart (0 when
	// unavailable): "tables": 14 beside a text of "12 tables, 2 views"
	// read as two tables more than the user made.
	Tables int `json:"tables"`
	Views  int `json:"views"`
	// EmptyTables counts the tables whose profile counted no rows: a
	// schema-only copy answers every question with nothing, and a host
	// told so up front says that instead of "none".
	EmptyTables int `json:"empty_tables,omitempty"`
	// Status is "ready", "indexing" (still being opened: a retry later
	// finds it ready; Error says how far it got) or "unavailable" (Error
	// says why).
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Hint says how to make an unavailable datasource available.
	Hint string `json:"hint,omitempty"`
}

// ListDatasources describes every configured datasource, sorted by id.
// A datasource that cannot be opened is listed as unavailable, not an error.
func (e *Engine) ListDatasources(ctx context.Context) []DatasourceInfo {
	// Listing never waits for an open, even for a caller that reports
	// waits (WithWaitProgress): it says "indexing" at once.
	ctx = opening.NoWaitProgress(ctx)
	var out []DatasourceInfo
	for _, id := range e.caller(ctx).Datasources(e.DatasourceIDs()) {
		spec := e.specs[id]
		info := DatasourceInfo{ID: id, Engine: spec.Engine, Description: spec.Description, Status: "ready"}
		ds, err := e.datasource(ctx, id)
		if err != nil {
			info.Status, info.Error, info.Hint = "unavailable", AsError(err).Msg, AsError(err).Hint
			if AsError(err).Code == CodeDatasourceIndexing {
				info.Status = "indexing"
			}
		} else {
			snap := e.caller(ctx).FilterSnapshot(ds.snap)
			info.Views = snap.Views()
			info.Tables = len(snap.Tables) - info.Views
			for _, t := range snap.Tables {
				if t.Kind == schema.KindTable && t.RowCount != nil && *t.RowCount == 0 {
					info.EmptyTables++
				}
			}
		}
		out = append(out, info)
	}
	if out == nil {
		out = []DatasourceInfo{}
	}
	return out
}
