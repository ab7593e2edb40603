// Package snapshots loads a datasource's profiled schema snapshot when the
// datasource opens, doing as little work as the state store allows.
//
// It owns the freshness rules: a source whose state token (Tokener: the
// SQLite and DuckDB files' size, time and header) equals the one recorded
// reuses the stored snapshot with no introspection and no COUNT(*); a
// server database (PostgreSQL) has no such token, and with Presume its
// schema version, recorded after a full check, stands for it until the
// caller checks in full (status Presumed: no COUNT(*) before the first
// answer); else
// the schema is introspected and the rows counted, and an unchanged schema
// with unchanged row counts and a profile younger than MaxAge reuses the
// stored profile; else only the tables whose schema or row count changed
// are profiled again, and the snapshot is stored (nothing new when it is
// identical). An introspected schema carries the notes of the source's
// documentation tables as comments (internal/source/dictionary), read
// before it is compared: an edited note makes a new snapshot. Every snapshot it returns has the values of secret-named
// columns withheld (WithholdSecrets). It never builds a retrieval index,
// applies an access policy or decides whether a datasource may open: the
// engine opens the source, calls Load, and refuses a snapshot without
// tables.
//
// Worked example:
//
//	l := snapshots.Loader{Store: st, MaxAge: 24 * time.Hour, Log: log}
//	snap, version, fingerprint, status, err := l.Load(ctx, src)
//	// first open: status New, every table profiled and stored
//	// restart, nothing written since: status Reused, no query ran
//	// PostgreSQL, restart with Presume, schema version as recorded:
//	// status Presumed; a Load without Presume then counts the rows
//	// a column added to one table: status New, that table profiled again
package snapshots
