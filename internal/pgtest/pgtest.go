// Package pgtest gives tests a PostgreSQL schema of their own on the
// server of NL2SQL_TEST_PG_DSN (a superuser DSN; .ci/pg.sh exports it).
// Without the variable a test skips with a message, or fails when CI is
// set.
//
//	func TestX(t *testing.T) {
//		dsn := pgtest.Schema(t, pgtest.DSN(t)) // search_path=pgtest_…, dropped with the test
//		st, err := store.OpenPostgres(ctx, dsn)
//		…
//	}
package pgtest

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

// DSN returns NL2SQL_TEST_PG_DSN; without it the test skips (fails when
// CI is set).
func DSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv("NL2SQL_TEST_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			tb.Fatal("NL2SQL_TEST_PG_DSN is not set (source .ci/pg.sh && pg_start)")
		}
		tb.Skip("NL2SQL_TEST_PG_DSN is not set: PostgreSQL part not tested")
	}
	return dsn
}

// Schema creates a schema with a unique name (pgtest_ and 12 hex digits)
// in super's database, drops it (CASCADE) when the test ends, and returns
// super with search_path set to it.
func Schema(tb testing.TB, super string) string {
	tb.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "pgtest_" + hex.EncodeToString(b[:])
	Exec(tb, super, `CREATE SCHEMA `+name)
	tb.Cleanup(func() { Exec(tb, super, `DROP SCHEMA `+name+` CASCADE`) })
	return WithSearchPath(super, name)
}

// WithSearchPath adds search_path=schema to a URL or key=value DSN.
func WithSearchPath(dsn, schema string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return strings.TrimSpace(dsn) + " search_path=" + schema
}

// Exec runs statements in order through one fresh connection of dsn (the
// simple protocol: a statement may hold several); an error fails the test.
func Exec(tb testing.TB, dsn string, stmts ...string) {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	for _, stmt := range stmts {
		if _, err := c.Exec(ctx, stmt); err != nil {
			tb.Fatalf("%s: %v", stmt, err)
		}
	}
}

// Reader is a fresh schema (Schema) and a fresh login role that may use
// it, both dropped when the test ends: Super is super's DSN with the
// schema as search_path (for setup), Name the schema, Role the role, and
// URL the role's DSN (password "pw"), for the server under test. The
// role may read nothing yet: the test grants what it should read. It
// skips when NL2SQL_TEST_PG_DSN is not a URL.
type Reader struct {
	Super, Name, Role string
	URL               *url.URL
}

// NewReader sets up a Reader whose role's name starts with prefix.
func NewReader(tb testing.TB, prefix string) Reader {
	tb.Helper()
	super := DSN(tb)
	schemaDSN := Schema(tb, super)
	u, err := url.Parse(schemaDSN)
	if err != nil || u.Scheme == "" {
		tb.Skipf("NL2SQL_TEST_PG_DSN is not a postgres:// URL: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	role := prefix + "_" + hex.EncodeToString(b[:])
	Exec(tb, super, `CREATE ROLE `+role+` LOGIN PASSWORD 'pw'`)
	tb.Cleanup(func() { Exec(tb, super, `DROP OWNED BY `+role+`; DROP ROLE `+role) })
	name := u.Query().Get("search_path")
	Exec(tb, super, `GRANT USAGE ON SCHEMA `+name+` TO `+role)
	ru := *u
	ru.User = url.UserPassword(role, "pw")
	return Reader{Super: schemaDSN, Name: name, Role: role, URL: &ru}
}
