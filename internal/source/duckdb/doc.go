// Package duckdb is the datasource adapter for one DuckDB database file
// (OpenDuckDB, *DuckDB), on duckdb-go: it opens the file with
// access_mode=READ_ONLY, external access, extension autoloading and the
// configuration locked (duckdbSettings, read back at open), prepares each
// text as exactly one statement, runs a plain SELECT inside
// SELECT * FROM (…) LIMIT cap+1 so DuckDB produces no more rows than are
// read, and keeps JSON and nested values exact by reading them as text.
// FileMoved says, with one stat, whether its path still names the file it
// opened, so a running server reopens a file put in its place at the next
// call.
//
// QueryDuckDBConn and the sandbox settings (DuckDBSandbox,
// DuckDBSettingsQuery, DuckDBSettingsMismatch) are shared with the
// in-process combination databases (duckcompute), so a combined result
// reads exactly like a datasource's.
//
// It never writes to the file, never loads an extension, and never
// imports another adapter.
package duckdb
