package postgres

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// openPGTest opens dsn with the adapter and closes it with the test.
func openPGTest(t *testing.T, dsn string, opts source.Options) *Postgres {
	return sourcetest.Open(t, OpenPostgres, dsn, opts)
}
