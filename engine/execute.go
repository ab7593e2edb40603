package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/warnings"
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

// havingProbe runs the probe of a grouped plan whose having filter kept no
// group (warnings.HavingProbe) as the caller, through the same validation,
// and says what it found; "" when there is none or it fails.
func (e *Engine) havingProbe(ctx context.Context, ds *datasource, plan *planast.Query) string {
	probe := warnings.HavingProbe(plan)
	if probe == nil {
		return ""
	}
	v, err := e.validateFor(ctx, ds, probe)
	if err != nil {
		return ""
	}
	sql, err := e.render(ds, &planned{plan: v.Plan})
	if err != nil {
		return ""
	}
	rows, err := e.execute(ctx, ds, sql)
	if err != nil || len(rows.Rows) != 1 {
		return ""
	}
	return warnings.HavingWarning(plan, rows.Rows[0], rows.ColumnTypes)
}
