package engine

import (
	"context"
	"net/url"
	"path/filepath"

	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/scope"
)

// retrieve builds the schema context the planner sees for a question: the
// tables, columns and matched values the retrieval index ranks highest
// (bleve BM25 + exact-cosine vectors, fused, then foreign-key expansion),
// or the whole schema when that is small (see index.Budget). Only what
// the caller may read reaches the prompt: the index is asked with the
// caller's scope as its filter, and values are dropped for tables the
// caller sees through a row filter (they come from all rows).
func (e *Engine) retrieve(ctx context.Context, ds *datasource, question string) string {
	return ds.schemaContext(e.retrieved(ctx, ds, question))
}

// retrieved is the snapshot retrieve renders: the visible tables and
// columns retrieval keeps for the question.
func (e *Engine) retrieved(ctx context.Context, ds *datasource, question string) *schema.Snapshot {
	e.retrievals.Add(1)
	sc := e.caller(ctx)
	visible := sc.FilterSnapshot(ds.snap)
	if ds.idx == nil {
		return visible
	}
	id := ds.spec.ID
	sel, err := ds.idx.Retrieve(ctx, question, e.opts.Retrieval, sc.Reader(id))
	if err != nil {
		e.log.Warn("retrieval failed; sending the whole visible schema", "datasource", id, "err", err)
		return visible
	}
	sel.Values = filteredValues(sel.Values, sc, id)
	if tr := traceFrom(ctx); tr != nil {
		tr.mu.Lock()
		tr.t.Retrieved = sel
		tr.mu.Unlock()
	}
	return sel.Filter(visible)
}

// storedValues lists a text column's stored values for the warnings of a
// run that matched nothing: from the retrieval index, and never for a
// table the caller reads through a row filter (the index holds values of
// every row).
func (e *Engine) storedValues(ctx context.Context, ds *datasource) func(schemaName, table, column string) []string {
	if ds.idx == nil {
		return nil
	}
	sc := e.caller(ctx)
	return func(schemaName, table, column string) []string {
		if len(sc.RowFilters(ds.spec.ID, schemaName, table)) > 0 {
			return nil
		}
		return ds.idx.ColumnValues(schemaName, table, column)
	}
}

// filteredValues drops matched values of row-filtered tables.
func filteredValues(vals []index.Value, sc *scope.Scope, ds string) []index.Value {
	out := vals[:0:0]
	for _, v := range vals {
		if len(sc.RowFilters(ds, v.Schema, v.Table)) == 0 {
			out = append(out, v)
		}
	}
	return out
}

// buildIndex opens the stored retrieval index of a snapshot (under
// Options.IndexDir, keyed by the snapshot's fingerprint, the embedder and
// the index options) or builds it, reading stored text values through the
// source's read-only query path, and says whether it built one. An index
// that cannot be stored is built in memory; a failure leaves the
// datasource without an index (the whole schema is sent). Both are logged.
func (e *Engine) buildIndex(ctx context.Context, src Source, snap *schema.Snapshot, fingerprint string, pre *index.Prefetch) (*index.Index, bool) {
	emb, opts := e.indexOptions(ctx, src, fingerprint)
	opts.Prefetched = pre
	if e.opts.IndexDir != "" {
		ix, op, err := index.OpenOrBuild(ctx, e.indexDir(src.ID()), snap, emb, opts)
		if op.Rebuilt != "" {
			e.log.Warn("stored retrieval index unusable; rebuilt it", "datasource", src.ID(), "reason", op.Rebuilt)
		}
		if err == nil {
			return ix, op.Built
		}
		if ctx.Err() != nil { // the engine is closing: no fault to report
			return nil, false
		}
		e.log.Warn("cannot store the retrieval index; building it in memory", "datasource", src.ID(), "code", store.CodeOf(err), "err", err)
	}
	ix, err := index.Build(ctx, snap, emb, opts)
	if err != nil {
		if ctx.Err() == nil {
			e.log.Warn("cannot build the retrieval index; the whole schema will be sent", "datasource", src.ID(), "err", err)
		}
		return nil, false
	}
	return ix, true
}

// indexOptions are the embedder and options a datasource's retrieval
// index is built or opened with.
func (e *Engine) indexOptions(ctx context.Context, src Source, fingerprint string) (index.Embedder, index.Options) {
	q := func(ctx context.Context, sql string, maxRows int) ([][]any, bool, error) {
		res, err := src.Query(ctx, sql, nil, maxRows)
		if err != nil {
			return nil, false, err
		}
		return res.Rows, res.Truncated, nil
	}
	emb := e.opts.Embedder
	if emb == nil {
		emb = index.NGram{}
	}
	return emb, index.Options{Values: values.FromQuery(q), Fingerprint: fingerprint, Progress: func(stage string, done, total int) {
		opening.Progress(ctx, stage, done, total)
	}}
}

// indexDir is where a datasource's retrieval indexes are stored.
func (e *Engine) indexDir(id string) string {
	return filepath.Join(e.opts.IndexDir, url.PathEscape(id))
}

// prefetchIndex starts reading the stored retrieval index of the snapshot
// version the loader expects (snapshots.Loader.Recorded), so that it is
// read while the snapshot is; nil when there is nothing to read ahead.
func (e *Engine) prefetchIndex(ctx context.Context, src Source, version string) *index.Prefetch {
	if e.opts.IndexDir == "" || version == "" {
		return nil
	}
	emb, opts := e.indexOptions(ctx, src, version)
	return index.StartPrefetch(e.indexDir(src.ID()), emb, opts)
}
