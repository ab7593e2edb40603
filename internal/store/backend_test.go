package store

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// opener opens a fresh, empty store of one backend, closed at cleanup.
type opener func(tb testing.TB, opts ...Option) *Store

// forEachBackend runs body once per backend: "sqlite" (a temporary
// directory) and "postgres" (a fresh schema in the database of
// NL2SQL_TEST_PG_DSN, dropped with the test; skipped without it unless CI
// is set, where it fails).
func forEachBackend(t *testing.T, body func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { body(t, open) })
	t.Run("postgres", func(t *testing.T) {
		super := pgtest.DSN(t)
		body(t, func(tb testing.TB, opts ...Option) *Store {
			tb.Helper()
			s, err := OpenPostgres(context.Background(), pgtest.Schema(tb, super), opts...)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { s.Close() })
			return s
		})
	})
}
