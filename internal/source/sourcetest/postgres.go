package sourcetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// PGSuperDSN is the DSN of a PostgreSQL superuser for setting up fixtures
// (internal/pgtest: NL2SQL_TEST_PG_DSN, skipped without it, failed when
// CI is set).
func PGSuperDSN(t *testing.T) string { return pgtest.DSN(t) }

// PGFixture is a fresh database with a fresh read-only login role, both
// dropped with the test.
type PGFixture struct {
	Super    string // superuser DSN of the database, for setup and checks
	ReadOnly string // DSN of the role, which may only SELECT
	DB, Role string
}

// WithDSN returns dsn (URL or key=value form) with user, password and
// database replaced.
func WithDSN(dsn, user, password, db string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if user != "" {
			u.User = url.UserPassword(user, password)
		}
		u.Path = "/" + db
		return u.String()
	}
	s := dsn + " dbname=" + db
	if user != "" {
		s += " user=" + user + " password=" + password
	}
	return s
}

// WithParam is dsn with its parameter key set to value: a URL's query
// parameter (added or replaced, whether or not the URL had a query) or a
// keyword DSN's key=value.
func WithParam(dsn, key, value string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " " + key + "=" + value
}

// PGExec runs statements through one connection of dsn (internal/pgtest).
func PGExec(t *testing.T, dsn string, stmts ...string) { pgtest.Exec(t, dsn, stmts...) }

// PGQueryString runs one query through dsn and returns its first column
// and row as text.
func PGQueryString(t *testing.T, dsn, q string) string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	var s string
	if err := c.QueryRow(ctx, q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// NewPGFixture creates a database, runs setup in it as the superuser, and
// creates a login role with USAGE on every non-system schema and SELECT on
// every table there.
func NewPGFixture(t *testing.T, setup ...string) *PGFixture {
	t.Helper()
	super := PGSuperDSN(t)
	b := make([]byte, 6)
	rand.Read(b)
	suffix := hex.EncodeToString(b)
	f := &PGFixture{DB: "nl2sql_t_" + suffix, Role: "nl2sql_ro_" + suffix}
	password := "pw_" + suffix
	create := "CREATE DATABASE " + f.DB
	if PGQueryString(t, super, "SELECT current_setting('server_version_num')") >= "150000" {
		create += " STRATEGY FILE_COPY" // PostgreSQL 15's default, WAL_LOG, takes seconds
	}
	PGExec(t, super, create, "CREATE ROLE "+f.Role+" LOGIN PASSWORD '"+password+"'")
	t.Cleanup(func() {
		PGExec(t, super, "DROP DATABASE IF EXISTS "+f.DB+" WITH (FORCE)", "DROP ROLE IF EXISTS "+f.Role)
	})
	f.Super = WithDSN(super, "", "", f.DB)
	f.ReadOnly = WithDSN(super, f.Role, password, f.DB)
	PGExec(t, f.Super, setup...)
	PGExec(t, f.Super, `DO $$ DECLARE s text; BEGIN
		FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema' LOOP
			EXECUTE format('GRANT USAGE ON SCHEMA %I TO `+f.Role+`', s);
			EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO `+f.Role+`', s);
		END LOOP; END $$`)
	return f
}

// ErrCause is the cause of an *Error, for test messages.
func ErrCause(err error) error {
	if se, ok := err.(*source.Error); ok {
		return se.Err
	}
	return nil
}

// PGFixtureScript is the shared fixture script plus the PostgreSQL-only
// table its comments ask for.
func PGFixtureScript(t *testing.T) string {
	t.Helper()
	s := FixtureScript(t)
	extra := `CREATE TABLE "Case" ("Group" INTEGER, "group" INTEGER); INSERT INTO "Case" VALUES (1, 10);`
	if !strings.Contains(s, `"Case"`) {
		t.Fatal("the fixture no longer mentions the \"Case\" table")
	}
	return s + "\n" + extra
}
