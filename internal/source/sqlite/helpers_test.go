package sqlite

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// openTest opens path with the adapter and closes it with the test.
func openTest(t *testing.T, path string, opts source.Options) *SQLite {
	return sourcetest.Open(t, OpenSQLite, path, opts)
}
