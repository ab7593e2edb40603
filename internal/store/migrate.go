package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migration is one step of the store's schema. Versions run 1, 2, 3, … in
// slice order; a released migration is never edited, only followed by a new
// one.
type migration struct {
	version int
	name    string
	sql     string // one or more statements
}

// migrations is the store's schema history. Open applies every migration
// above the version recorded in schema_migrations, each in its own
// transaction together with its schema_migrations row.
var migrations = []migration{
	{1, "snapshots", `
CREATE TABLE snapshots (
	id              INTEGER PRIMARY KEY,
	datasource      TEXT    NOT NULL,
	version         TEXT    NOT NULL, -- schema.Snapshot.Fingerprint: hex sha256 of body
	schema_hash     TEXT    NOT NULL, -- SchemaFingerprint: the schema without its profile
	row_counts_hash TEXT    NOT NULL, -- RowCountsHash(RowCounts(snapshot))
	created_at      INTEGER NOT NULL, -- Unix ns, UTC
	profiled_at     INTEGER,          -- Unix ns, UTC; NULL when not profiled
	body            BLOB    NOT NULL, -- canonical JSON of the snapshot
	UNIQUE (datasource, version)
);
CREATE TABLE snapshot_heads (
	datasource TEXT    PRIMARY KEY,
	version    TEXT    NOT NULL,
	updated_at INTEGER NOT NULL, -- Unix ns, UTC
	FOREIGN KEY (datasource, version) REFERENCES snapshots (datasource, version)
);`},
	{2, "plan_cache", `
CREATE TABLE plan_cache (
	key            TEXT    PRIMARY KEY, -- PlanKey.Hash
	datasource     TEXT    NOT NULL,
	schema_version TEXT    NOT NULL,
	plan           BLOB    NOT NULL,
	created_at     INTEGER NOT NULL, -- Unix ns, UTC
	hits           INTEGER NOT NULL DEFAULT 0,
	last_hit_at    INTEGER           -- Unix ns, UTC; NULL before the first hit
);
CREATE INDEX plan_cache_datasource ON plan_cache (datasource, schema_version);`},
	{3, "traces", `
CREATE TABLE traces (
	id         TEXT    PRIMARY KEY,
	created_at INTEGER NOT NULL, -- Unix ns, UTC
	summary    BLOB    NOT NULL
);
CREATE INDEX traces_recent ON traces (created_at DESC, id DESC);`},
	{4, "approvals", `
CREATE TABLE approvals (
	id         TEXT    PRIMARY KEY,
	state      TEXT    NOT NULL, -- pending, approved, rejected, used
	body       BLOB     NOT NULL, -- JSON of the request: caller, datasource, question, plan
	created_at INTEGER NOT NULL,
	decided_by TEXT,
	decided_at INTEGER
);
CREATE INDEX approvals_state ON approvals (state, created_at);`},
	{5, "source_states", `
CREATE TABLE source_states (
	datasource TEXT    PRIMARY KEY,
	token      TEXT    NOT NULL, -- the source's state token when version was confirmed
	version    TEXT    NOT NULL, -- the snapshot version it confirmed
	updated_at INTEGER NOT NULL  -- Unix ns, UTC
);`},
}

// SchemaVersion is the newest migration this build knows: the version a
// store is at after Open.
func SchemaVersion() int { return len(migrations) }

// checkMigrations reports a history whose versions are not 1, 2, … n.
func checkMigrations(migs []migration) error {
	for i, m := range migs {
		if m.version != i+1 {
			return fmt.Errorf("migration %d (%s) has version %d, want %d", i, m.name, m.version, i+1)
		}
	}
	return nil
}

const createMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at INTEGER NOT NULL -- Unix ns, UTC
)`

// migrate brings the database up to the last of migs. A store already
// there is only read. Another process migrating at the same time is safe:
// each step re-reads the version inside its write transaction and skips
// what the other process applied. A store above the last of migs is
// refused with CodeTooNew and left untouched.
func (s *Store) migrate(ctx context.Context, migs []migration) error {
	if err := checkMigrations(migs); err != nil {
		return errorf(CodeInvalid, err, "the store's migrations are out of order")
	}
	if err := s.createMigrationsTable(ctx); err != nil {
		return err
	}
	cur, err := currentVersion(ctx, s.db)
	if err != nil {
		return s.fail("read the schema version", err)
	}
	if err := s.tooNew(cur, len(migs)); err != nil {
		return err
	}
	for _, m := range migs {
		if m.version <= cur {
			continue
		}
		err := s.tx(ctx, fmt.Sprintf("apply migration %d (%s)", m.version, m.name), func(tx *sql.Tx) error {
			if err := s.fl.lock(ctx, tx, "migrate"); err != nil {
				return err
			}
			now, err := currentVersion(ctx, tx)
			if err != nil {
				return err
			}
			if err := s.tooNew(now, len(migs)); err != nil {
				return err
			}
			if now >= m.version {
				return nil // another process applied it
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
				m.version, m.name, stamp(s.now()))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) tooNew(cur, known int) error {
	if cur > known {
		return errorf(CodeTooNew, nil,
			"%s was written by a newer nl2sql (store schema version %d; this build knows up to %d): upgrade nl2sql or point storage.path elsewhere",
			s.display, cur, known)
	}
	return nil
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func currentVersion(ctx context.Context, q queryRower) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// createMigrationsTable creates schema_migrations when missing. On
// PostgreSQL two replicas starting at once would race in CREATE TABLE IF
// NOT EXISTS (a unique violation in the catalog), so it runs under the
// migration lock there.
func (s *Store) createMigrationsTable(ctx context.Context) error {
	if !s.fl.advisory {
		if _, err := s.db.ExecContext(ctx, s.fl.createMigrations); err != nil {
			return s.fail("create schema_migrations", err)
		}
		return nil
	}
	return s.tx(ctx, "create schema_migrations", func(tx *sql.Tx) error {
		if err := s.fl.lock(ctx, tx, "migrate"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.fl.createMigrations)
		return err
	})
}
