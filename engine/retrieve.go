package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/schema"
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
	return ds.sem.SchemaContext(e.retrieved(ctx, ds, question))
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
