package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
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
		super := pgDSN(t)
		body(t, func(tb testing.TB, opts ...Option) *Store {
			tb.Helper()
			s, err := OpenPostgres(context.Background(), pgSchema(tb, super), opts...)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { s.Close() })
			return s
		})
	})
}

// pgDSN is NL2SQL_TEST_PG_DSN; without it the test skips (fails when CI
// is set).
func pgDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("NL2SQL_TEST_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("NL2SQL_TEST_PG_DSN is not set (source .ci/pg.sh && pg_start)")
		}
		t.Skip("NL2SQL_TEST_PG_DSN is not set: PostgreSQL state store not tested")
	}
	return dsn
}

// pgSchema creates a schema with a unique name in super's database,
// dropped at cleanup, and returns super with search_path set to it.
func pgSchema(tb testing.TB, super string) string {
	tb.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "store_test_" + hex.EncodeToString(b[:])
	pgExec(tb, super, `CREATE SCHEMA `+name)
	tb.Cleanup(func() { pgExec(tb, super, `DROP SCHEMA `+name+` CASCADE`) })
	return withSearchPath(super, name)
}

// withSearchPath adds search_path=schema to a URL or key=value DSN.
func withSearchPath(dsn, schema string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return strings.TrimSpace(dsn) + " search_path=" + schema
}

// pgExec runs one statement through a fresh connection.
func pgExec(tb testing.TB, dsn, stmt string) {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, stmt); err != nil {
		tb.Fatalf("%s: %v", stmt, err)
	}
}
