package app

import (
	"context"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/adapters"
)

// OpenSource opens a datasource with the adapter for its engine
// (internal/source/adapters). It is the opener every engine built here is
// handed (engine.Options.Open): the adapters are chosen at the top, and
// the pipeline imports no driver.
func OpenSource(ctx context.Context, spec engine.DatasourceSpec) (engine.Source, error) {
	return adapters.Open(ctx, spec.Engine, spec.ID, spec.Path, spec.DSN, source.Options{RowLimit: spec.AdapterRows(),
		Timeout: spec.Timeout, AllowWritableRole: spec.AllowWritableRole})
}
