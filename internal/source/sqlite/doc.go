// Package sqlite is the datasource adapter for one SQLite database file
// (OpenSQLite, *SQLite), on modernc.org/sqlite: it opens the file
// read-only, introspects its schema snapshot, profiles its columns in one
// scan plus a bounded sample, answers queries under the row and time caps,
// and says cheaply which state the file is in (StateToken) so a restart
// can skip introspection, and, with one stat, whether its path still names
// the file it opened (FileMoved) so a running server answers from a file
// put in its place at the next call.
//
// Read-only holds three times below the shared statement gate
// (source.CheckStatement): mode=ro, PRAGMA query_only on every connection,
// and an authorizer (sqlitePolicy) that lets a statement compile only if it
// reads. Each connection keeps the statements it prepared (cachingConn),
// so SQL run again is not compiled again; they were authorized when
// prepared, under the one policy of their pool. Values leave through the
// shared encoding (source.EncodeValue).
// RawRows hands the driver's values, unencoded, to the copier
// (internal/source/sqlitecopy) only.
//
// It never writes to the file, never runs text the gate refused through
// Query, and never imports another adapter.
package sqlite
