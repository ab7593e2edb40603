package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// execute runs the rendered SQL read-only, stopping at the row limit.
func (e *Engine) execute(ctx context.Context, ds *datasource, sql string) (*source.Result, error) {
	res, err := tracedSource{ds.src}.Query(ctx, sql, nil, ds.spec.RowLimit)
	if err != nil {
		return nil, sourceError(err, ds.spec.ID)
	}
	return res, nil
}

// typed gives a run's result of plan p its portable column types and the
// decimal scales the plan means (result.ShowDecimalScales), a column's
// scale as ds's snapshot declares it.
func typed(ds *datasource, rows *source.Result, p *planned) {
	result.ApplyTypes(rows, p.types)
	result.ShowDecimalScales(rows, p.plan, func(c *planast.Column) (int, bool) {
		_, col := emptyrange.TableOfColumn(ds.snap, p.plan, c)
		if col == nil || col.Type != planast.TypeDecimal {
			return 0, false
		}
		return schema.DecimalScale(col.DeclaredType)
	})
}
