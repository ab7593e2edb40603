package engine

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/index"
)

// Search runs the retrieval index for text on a datasource, for clients
// that plan themselves (the search_schema tool): the best-matching tables
// with their kept columns, and stored values matching words of the text,
// all filtered by the caller's scope.
func (e *Engine) Search(ctx context.Context, datasource, text string) (*index.Selection, error) {
	if text == "" || len(text) > MaxQuestionBytes {
		return nil, Errorf(CodeInvalidRequest, "send 1 to 4096 bytes of text, e.g. the question's key words", "the search text is empty or too long")
	}
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return nil, err
	}
	r := e.retrieval(ctx, ds)
	sel, err := r.Search(ctx, text)
	if err != nil {
		return nil, err
	}
	if !e.noneHeld(ctx, ds, text, sel) {
		if err := r.WordValues(ctx, text, sel); err != nil {
			return nil, AsError(err)
		}
		return sel, nil
	}
	// no table a match, as ask says of the same words
	return &index.Selection{Datasource: sel.Datasource, Tables: []index.TableSelection{}, Unmatched: sel.Unmatched}, nil
}

// noneHeld reports whether the data holds none of the words of q a
// match turns on (index.Weighed): a fuzzy value ("Heather" of "weather"),
// a title spelling a word a plan computes ("Today") or an embedding's
// nearness then matches nothing, in search_schema as in ask. A word
// naming a table or column the caller reads is weighed and held
// (index.Weighed), so a question naming one is never said to match nothing.
func (e *Engine) noneHeld(ctx context.Context, ds *datasource, q string, sel *index.Selection) bool {
	weighed := ds.idx.Weighed(q, e.caller(ctx).Reader(ds.spec.ID))
	return len(weighed) > 0 && len(sel.Unmatched) == len(weighed)
}

// IndexReport says what refreshing one datasource did.
type IndexReport struct {
	Datasource string         `json:"datasource"`
	Tables     int            `json:"tables"`
	Views      int            `json:"views,omitempty"` // of Tables
	Version    string         `json:"version"`
	Snapshot   SnapshotStatus `json:"snapshot"`
	Indexed    bool           `json:"indexed"`
	// IndexBuilt: the retrieval index was built now; false with Indexed
	// means the stored one was reused.
	IndexBuilt bool    `json:"index_built"`
	MS         float64 `json:"ms"`
	Error      string  `json:"error,omitempty"`
	// Code and Hint type a failure as every other error of the engine.
	Code Code   `json:"code,omitempty"`
	Hint string `json:"hint,omitempty"`
}

// Refresh opens a datasource afresh: introspects it, profiles it unless
// its stored profile is still valid, stores the snapshot and rebuilds the
// retrieval index. Nothing changed means no profiling and no new version.
func (e *Engine) Refresh(ctx context.Context, id string) IndexReport {
	t0 := time.Now()
	rep := IndexReport{Datasource: id}
	if old, ok := e.sources.Forget(id); ok {
		old.close()
	}
	e.checked.Store(id, true) // a refresh checks in full, never presumes
	var ds *datasource
	var err error = e.noDatasource(ctx, id)
	if _, known := e.specs[id]; known {
		ds, err = e.sources.Await(ctx, id, 0)
	}
	rep.MS = ms(time.Since(t0))
	if err != nil {
		te := AsError(err)
		rep.Error, rep.Code, rep.Hint = te.Msg, te.Code, te.Hint
		return rep
	}
	rep.Tables, rep.Version, rep.Snapshot, rep.Indexed = len(ds.snap.Tables), ds.version, ds.status, ds.idx != nil
	rep.Views = ds.snap.Views()
	rep.IndexBuilt = ds.indexBuilt
	return rep
}
