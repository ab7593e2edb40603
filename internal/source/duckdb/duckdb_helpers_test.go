package duckdb

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// openDuckTest opens path with the adapter and closes it with the test.
func openDuckTest(t *testing.T, path string, opts source.Options) *DuckDB {
	return sourcetest.Open(t, OpenDuckDB, path, opts)
}
