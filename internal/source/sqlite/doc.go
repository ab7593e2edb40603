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
// A view column's type: SQLite declares a type only for a view column
// that is a plain column of a table (PRAGMA table_info gives that
// column's declared type, as for the table). A computed column (an
// expression, an aggregate: SUM(amount), julianday(a) - julianday(b))
// has none; Snapshot types it by the storage classes (typeof) of its
// values in the view's first 100 rows, read within 2 seconds: integers
// alone are integer, integers and reals float, text alone text. No value
// there, values of several classes, or a sample that fails or takes longer
// leaves it unknown (the validator then asks for a cast). Views are not
// profiled nor counted (a view may aggregate a large table: counting it
// is computing it), so they have no row count and no samples.
//
// It never writes to the file, never runs text the gate refused through
// Query, and never imports another adapter.
package sqlite
