package engine

import "context"

// retrieve builds the schema context the planner sees. Until the retrieval
// index lands it is the whole snapshot, which suits catalogues of a few
// dozen tables such as the bundled examples.
//
// Only what the caller may read reaches the prompt: the snapshot is
// filtered by the caller's scope first.
func (e *Engine) retrieve(ctx context.Context, ds *datasource) string {
	return schemaContext(e.caller(ctx).FilterSnapshot(ds.snap))
}
