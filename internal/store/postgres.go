package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// pgMigrations is the PostgreSQL schema history: the same versions, names,
// tables and columns as migrations, in PostgreSQL's types (BIGINT Unix ns,
// BYTEA bodies). A released migration is never edited.
var pgMigrations = []migration{
	{1, "snapshots", `
CREATE TABLE snapshots (
	id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	datasource      TEXT   NOT NULL,
	version         TEXT   NOT NULL,
	schema_hash     TEXT   NOT NULL,
	row_counts_hash TEXT   NOT NULL,
	created_at      BIGINT NOT NULL,
	profiled_at     BIGINT,
	body            BYTEA  NOT NULL,
	UNIQUE (datasource, version)
);
CREATE TABLE snapshot_heads (
	datasource TEXT   PRIMARY KEY,
	version    TEXT   NOT NULL,
	updated_at BIGINT NOT NULL,
	FOREIGN KEY (datasource, version) REFERENCES snapshots (datasource, version)
);`},
	{2, "plan_cache", `
CREATE TABLE plan_cache (
	key            TEXT   PRIMARY KEY,
	datasource     TEXT   NOT NULL,
	schema_version TEXT   NOT NULL,
	plan           BYTEA  NOT NULL,
	created_at     BIGINT NOT NULL,
	hits           BIGINT NOT NULL DEFAULT 0,
	last_hit_at    BIGINT
);
CREATE INDEX plan_cache_datasource ON plan_cache (datasource, schema_version);`},
	{3, "traces", `
CREATE TABLE traces (
	id         TEXT   PRIMARY KEY,
	created_at BIGINT NOT NULL,
	summary    BYTEA  NOT NULL
);
CREATE INDEX traces_recent ON traces (created_at DESC, id DESC);`},
	{4, "approvals", `
CREATE TABLE approvals (
	id         TEXT    PRIMARY KEY,
	state      TEXT    NOT NULL, -- pending, approved, rejected, used
	body       BYTEA    NOT NULL, -- JSON of the request: caller, datasource, question, plan
	created_at BIGINT NOT NULL,
	decided_by TEXT,
	decided_at BIGINT
);
CREATE INDEX approvals_state ON approvals (state, created_at);`},
	{5, "source_states", `
CREATE TABLE source_states (
	datasource TEXT   PRIMARY KEY,
	token      TEXT   NOT NULL,
	version    TEXT   NOT NULL,
	updated_at BIGINT NOT NULL
);`},
}

const pgCreateMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at BIGINT  NOT NULL
)`

// OpenPostgres opens the state store in a PostgreSQL database through pgx
// (storage.postgres): the same tables, behaviour and errors as Open's
// SQLite store, shared by every replica pointed at it. dsn is a
// postgres:// URL or a key=value DSN; its search_path (a runtime parameter,
// e.g. ?search_path=nl2sql) picks the schema, default public. The database
// is migrated as Open migrates SQLite; replicas starting at once serialise
// on an advisory lock, and two replicas putting the same snapshot store one
// row (one datasource's snapshot writes take an advisory lock too).
//
// WithBusyTimeout bounds connecting and the first ping (default
// DefaultBusyTimeout); WithClock is as for Open; WithDisplayPath is
// ignored: messages name the store as postgres://USER@HOST:PORT/DB, never
// with the password.
//
// Errors are *Error: CodeInvalid for an empty or malformed dsn,
// CodeUnavailable when the server cannot be reached or refuses the login,
// CodeReadOnly for a read-only server or a role without CREATE, CodeTooNew
// when a newer build migrated the database.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := options{now: time.Now, busy: DefaultBusyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.busy <= 0 {
		o.busy = DefaultBusyTimeout
	}
	if strings.TrimSpace(dsn) == "" {
		return nil, errorf(CodeInvalid, nil, "the PostgreSQL state store DSN is empty (set storage.postgres, e.g. ${env:NL2SQL_STORE_DSN})")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// the parse error can quote the DSN, password included: leave it out
		return nil, errorf(CodeInvalid, nil, "storage.postgres is not a PostgreSQL DSN (want postgres://USER:PASSWORD@HOST:PORT/DB or key=value pairs)")
	}
	s := &Store{display: pgDisplay(cfg.Config), now: o.now, fl: postgresFlavor}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s.db = db
	pctx, cancel := context.WithTimeout(ctx, o.busy)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, s.fail("connect to the store", err)
	}
	if err := s.migrate(ctx, s.fl.migrations); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// pgDisplay names a PostgreSQL store without its password.
func pgDisplay(c pgconn.Config) string {
	return fmt.Sprintf("postgres://%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// Backend names the store's database: "sqlite" (Open) or "postgres"
// (OpenPostgres).
func (s *Store) Backend() string { return s.fl.name }

// Ping checks that the store answers (readiness): one round trip to
// PostgreSQL, or a read of SQLite's schema version. Errors as the other
// methods (CodeUnavailable for a server that went away).
func (s *Store) Ping(ctx context.Context) error {
	if _, err := currentVersion(ctx, s.db); err != nil {
		return s.fail("reach the store", err)
	}
	return nil
}

// pgCodeOf classifies a PostgreSQL error by its SQLSTATE (class 53:
// insufficient resources, 40: transaction rollback, 25006 read-only
// transaction, 42501 insufficient privilege, 57014 query cancelled, 08:
// connection exception), and a connection failure as CodeUnavailable.
func pgCodeOf(err error) (string, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53100":
			return CodeFull, true
		case strings.HasPrefix(pe.Code, "40"), pe.Code == "55P03":
			return CodeBusy, true
		case pe.Code == "25006", pe.Code == "42501":
			return CodeReadOnly, true
		case pe.Code == "57014":
			return CodeCancelled, true
		case pe.Code == "XX001", pe.Code == "XX002":
			return CodeCorrupt, true
		}
		return CodeUnavailable, true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return CodeUnavailable, true
	}
	return "", false
}
