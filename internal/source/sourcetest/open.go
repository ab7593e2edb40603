package sourcetest

import (
	"context"
	"io"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// Open opens target (a file path or a DSN) with an adapter's open function
// (sqlite.OpenSQLite, duckdb.OpenDuckDB, postgres.OpenPostgres), fails the
// test when it cannot, and closes the datasource with the test.
func Open[T io.Closer](t testing.TB, open func(context.Context, string, string, source.Options) (T, error), target string, opts source.Options) T {
	t.Helper()
	s, err := open(context.Background(), "test", target, opts)
	if err != nil {
		t.Fatalf("open: %v (%v)", err, ErrCause(err))
	}
	t.Cleanup(func() { s.Close() })
	return s
}
