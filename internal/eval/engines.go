package eval

import (
	"context"
	"fmt"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/source"
)

// target is where rendered SQL runs.
type target interface {
	Query(ctx context.Context, sqlText string, args []any, maxRows int) (*source.Result, error)
}

// opener opens the engine under test for one benchmark database, given the
// SQLite file; it returns the target and how to release it.
type opener func(ctx context.Context, dbID, sqlitePath string) (target, func() error, error)

// targetOpener returns how to open the engine under test, and a cleanup
// to call once the run is over.
func targetOpener(opts Options) (opener, func(), error) {
	srcOpts := source.Options{RowLimit: opts.MaxRows, Timeout: opts.Timeout}
	switch opts.Engine {
	case EngineSQLite:
		return func(ctx context.Context, dbID, path string) (target, func() error, error) {
			s, err := sqlite.OpenSQLite(ctx, dbID, path, srcOpts)
			if err != nil {
				return nil, nil, err
			}
			return s, s.Close, nil
		}, func() {}, nil
	case EngineDuckDB, EnginePostgres:
		return copyOpener(opts, srcOpts)
	}
	return nil, nil, fmt.Errorf("eval: unknown engine %q", opts.Engine)
}
