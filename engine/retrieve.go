package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/retrieval"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// retrieve builds the schema context the planner sees for a question: the
// visible part of the schema retrieval keeps (engine/retrieval), with the
// semantic layer's definitions concerning it.
func (e *Engine) retrieve(ctx context.Context, ds *datasource, question string) string {
	return ds.sem.SchemaContext(e.retrieved(ctx, ds, question))
}

// retrieved is the snapshot retrieve renders: the visible tables and
// columns retrieval keeps for the question; the selection goes to the
// trace.
func (e *Engine) retrieved(ctx context.Context, ds *datasource, question string) *schema.Snapshot {
	e.retrievals.Add(1)
	kept, sel := e.retrieval(ctx, ds).Retrieve(ctx, question)
	if sel != nil {
		traceFrom(ctx).Update(func(t *Trace) { t.Retrieved = sel })
	}
	return kept
}

// retrieval is retrieval over ds for this request's caller.
func (e *Engine) retrieval(ctx context.Context, ds *datasource) retrieval.For {
	return retrieval.For{Datasource: ds.spec.ID, Snap: ds.snap, Index: ds.idx, Scope: e.caller(ctx), Budget: e.opts.Retrieval, Log: e.log, Description: ds.spec.Description}
}
