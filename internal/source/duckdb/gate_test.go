package duckdb

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// TestShapeOfPostgresAgainstDuckDB sends each case below the gate to
// DuckDB: the gate must never see one statement where DuckDB sees several.
func TestShapeOfPostgresAgainstDuckDB(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{})
	sourcetest.CheckGateAgainstEngine(t, "duckdb", func(q string) error { _, err := d.fetch(context.Background(), q, nil, 1); return err })
}
