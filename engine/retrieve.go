package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/index"
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
	e.retrievals.Add(1)
	sc := e.caller(ctx)
	visible := sc.FilterSnapshot(ds.snap)
	if ds.idx == nil {
		return ds.schemaContext(visible)
	}
	id := ds.spec.ID
	sel, err := ds.idx.Retrieve(ctx, question, e.opts.Retrieval, sc.Reader(id))
	if err != nil {
		e.log.Warn("retrieval failed; sending the whole visible schema", "datasource", id, "err", err)
		return ds.schemaContext(visible)
	}
	sel.Values = filteredValues(sel.Values, sc, id)
	if tr := traceFrom(ctx); tr != nil {
		tr.mu.Lock()
		tr.t.Retrieved = sel
		tr.mu.Unlock()
	}
	return ds.schemaContext(sel.Filter(visible))
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

// buildIndex builds the retrieval index of a snapshot, reading stored text
// values through the source's read-only query path. A failure leaves the
// datasource without an index (the whole schema is sent) and is logged.
func (e *Engine) buildIndex(ctx context.Context, src Source, snap *schema.Snapshot) *index.Index {
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
	ix, err := index.Build(ctx, snap, emb, index.Options{Values: index.ValuesFromQuery(q)})
	if err != nil {
		e.log.Warn("cannot build the retrieval index; the whole schema will be sent", "datasource", src.ID(), "err", err)
		return nil
	}
	return ix
}
