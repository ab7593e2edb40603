package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"strconv"
	"strings"
)

// flavor is what differs between the store's two backends: SQLite (Open)
// and PostgreSQL (OpenPostgres). Every query is written once, with ?
// placeholders, and rebound for PostgreSQL; the schema history is kept per
// backend (same versions and names, each in its own SQL).
type flavor struct {
	// name is "sqlite" or "postgres".
	name string
	// migrations is the backend's schema history; both have the same
	// versions and names (a test holds them equal).
	migrations []migration
	// createMigrations creates schema_migrations when it is missing.
	createMigrations string
	// dollar rewrites ? placeholders as $1, $2, … (PostgreSQL).
	dollar bool
	// advisory takes a PostgreSQL transaction-scoped advisory lock in
	// lock; SQLite's BEGIN IMMEDIATE already serialises every writer.
	advisory bool
}

var (
	sqliteFlavor   = &flavor{name: "sqlite", migrations: migrations, createMigrations: createMigrations}
	postgresFlavor = &flavor{name: "postgres", migrations: pgMigrations, createMigrations: pgCreateMigrations,
		dollar: true, advisory: true}
)

// q returns query in the backend's placeholder style. The store's queries
// hold no ? inside string literals, so every ? is a parameter.
func (s *Store) q(query string) string {
	if !s.fl.dollar {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lock serialises, across every process sharing a PostgreSQL store, the
// transactions that name the same key (one datasource's snapshot writes,
// the migrations): pg_advisory_xact_lock, released at commit or rollback.
// On SQLite it does nothing (the transaction already holds the write lock).
func (f *flavor) lock(ctx context.Context, tx *sql.Tx, key string) error {
	if !f.advisory {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, lockID(key))
	return err
}

// lockID maps a lock name to PostgreSQL's int64 advisory lock space: the
// first 8 bytes of sha256("nl2sql/store/" + key), so every build and
// replica agrees on it.
func lockID(key string) int64 {
	sum := sha256.Sum256([]byte("nl2sql/store/" + key))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}
