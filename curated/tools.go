package curated

import (
	"context"

	"github.com/nl2sql/nl2sql/scope"
)

// Summary is one entry of list_verified_queries: never the SQL.
type Summary struct {
	ID          string         `json:"id"`
	Datasource  string         `json:"datasource"`
	Description string         `json:"description"`
	Questions   []string       `json:"questions"`
	Params      []Param        `json:"params,omitempty"`
	ParamSchema map[string]any `json:"param_schema"`
}

// List returns what list_verified_queries shows the caller sc: the
// queries of Runnable(sc, ds), in file order.
func (s *Set) List(sc *scope.Scope, ds string) []Summary {
	out := []Summary{}
	for _, q := range s.Runnable(sc, ds) {
		out = append(out, Summary{ID: q.ID, Datasource: q.Datasource, Description: q.Description,
			Questions: q.Questions, Params: q.Params, ParamSchema: q.ParamSchema()})
	}
	return out
}

// RunByID is run_verified_query: the query id, if sc may run it (else
// VERIFIED_QUERY_NOT_FOUND, exactly as for an unknown id), with params,
// on src (the adapter of the query's datasource; see Datasource on the
// returned query via Get). See Run for the checks.
func (s *Set) RunByID(ctx context.Context, src Source, id string, params map[string]any, sc *scope.Scope, maxRows int, gates ...Gate) (*Execution, error) {
	q, ok := s.Get(id)
	if !ok || !q.runnable(sc) {
		return nil, refusef(CodeNotFound, "there is no verified query %q", id)
	}
	return Run(ctx, src, q, params, sc, maxRows, gates...)
}
