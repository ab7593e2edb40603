// Package source holds the datasource adapters: one type per engine
// (SQLite now; DuckDB and PostgreSQL follow in the same shape) with
//
//	ID() string
//	Dialect() string
//	Snapshot(ctx) (*schema.Snapshot, error)
//	Profile(ctx, *schema.Snapshot) error
//	Query(ctx, sql string, args []any, maxRows int) (*Result, error)
//	Close() error
//
// The engine declares the interface it needs; this package only provides
// the types.
//
// # Read-only, at the engine level
//
// An adapter never trusts the SQL it is given to be harmless: generated SQL
// comes from render, curated SQL from a person, and either may be wrong.
// The SQLite adapter opens the file with mode=ro, sets PRAGMA query_only=ON
// on each connection, and installs an authorizer (sqlitePolicy) that lets a
// statement compile only if it reads: SELECT, READ, an allow-listed FUNCTION,
// RECURSIVE. Query also refuses text that is not exactly one SELECT, WITH or
// VALUES statement before SQLite sees it (shapeOf). The hostile tests run
// the shared hostile cases through Query and, separately, below that lexical
// gate.
//
// # Bounded
//
// Query reads at most maxRows+1 rows (the extra one only sets Truncated),
// every statement runs under Options.Timeout and the caller's context, and
// the end of either interrupts SQLite even in the middle of rows.Next (see
// connHandle for why the adapter calls sqlite3_interrupt itself). One value
// may not exceed 16 MiB.
//
// # One value encoding
//
// Every result path (Query rows, profile ranges and samples) encodes values
// the same way (encodeValue): int64 within ±(2^53-1) else a decimal string,
// float64, decimals as numbers only when exact, text untouched, dates as
// YYYY-MM-DD, timestamps as "YYYY-MM-DD HH:MM:SS[.f][±HH:MM]", blobs as
// base64, NULL as nil.
//
// # Errors
//
// Adapters return *Error with a Code (READ_ONLY_VIOLATION, TIMEOUT,
// CANCELLED, DATASOURCE_UNAVAILABLE, QUERY_FAILED), a message and hint safe
// to show (no file paths), and the cause.
package source
