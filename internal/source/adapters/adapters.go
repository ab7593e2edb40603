// Package adapters picks the datasource adapter for an engine name: the
// one switch over internal/source/sqlite, /duckdb and /postgres. The
// composition root (internal/app) opens datasources through it and hands
// the engine an opener, so the pipeline never imports a driver.
package adapters

import (
	"context"
	"fmt"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// Open opens datasource id read-only with the adapter for engine
// ("sqlite", "duckdb", "postgres"): path is the database file of the file
// engines, dsn the connection string of postgres.
func Open(ctx context.Context, engine, id, path, dsn string, opts source.Options) (source.Source, error) {
	switch engine {
	case "sqlite":
		return sqlite.OpenSQLite(ctx, id, path, opts)
	case "duckdb":
		return duckdb.OpenDuckDB(ctx, id, path, opts)
	case "postgres":
		return postgres.OpenPostgres(ctx, id, dsn, opts)
	}
	return nil, fmt.Errorf("engine %q is not supported", engine)
}
