package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/adapters"
)

// openAdapter is the opener the composition root hands the engine
// (internal/app.OpenSource), for the tests of this package, which cannot
// import the root.
func openAdapter(ctx context.Context, spec DatasourceSpec) (Source, error) {
	return adapters.Open(ctx, spec.Engine, spec.ID, spec.Path, spec.DSN, source.Options{RowLimit: spec.AdapterRows(),
		Timeout: spec.Timeout, AllowWritableRole: spec.AllowWritableRole})
}
