package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/internal/source"
)

// execute runs the rendered SQL read-only, stopping at the row limit.
func (e *Engine) execute(ctx context.Context, ds *datasource, sql string) (*source.Result, error) {
	res, err := tracedSource{ds.src}.Query(ctx, sql, nil, ds.spec.RowLimit)
	if err != nil {
		return nil, sourceError(err, ds.spec.ID)
	}
	return res, nil
}
