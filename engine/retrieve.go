package engine

// retrieve builds the schema context the planner sees. Until the retrieval
// index lands it is the whole snapshot, which suits catalogues of a few
// dozen tables such as the bundled examples.
func (e *Engine) retrieve(ds *datasource) string {
	return schemaContext(ds.snap)
}
