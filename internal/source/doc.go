// Package source is the core the datasource adapters share: the contract
// each one meets, the statement gate, the one value encoding, the profiler
// the SQL engines share, the error type and the caps. The adapters are
// packages of their own, one per engine — internal/source/sqlite
// (*sqlite.SQLite, OpenSQLite), internal/source/duckdb (*duckdb.DuckDB,
// OpenDuckDB) and internal/source/postgres (*postgres.Postgres,
// OpenPostgres) — each with
//
//	ID() string
//	Dialect() string
//	Snapshot(ctx) (*schema.Snapshot, error)
//	Profile(ctx, *schema.Snapshot) error
//	Query(ctx, sql string, args []any, maxRows int) (*Result, error)
//	Close() error
//
// The engine declares the interface it needs and the composition root
// picks the adapter for a datasource's kind; this package never imports an
// adapter (internal/arch tests it), so curated validation shares the gate
// without the drivers. internal/source/sqlitecopy copies an SQLite
// database into the other engines (tests and evaluation use it), and
// internal/source/sourcetest holds the fixtures the adapters' tests share
// and the tests that run every engine side by side.
//
// # Read-only, at the engine level
//
// An adapter never trusts the SQL it is given to be harmless: generated SQL
// comes from render, curated SQL from a person, and either may be wrong.
// Every Query first applies one lexical gate (CheckStatement, which the
// verified-query loader applies too): exactly one SELECT, WITH or VALUES
// statement, possibly opening with parentheses, split by PostgreSQL's
// scanner (internal/sqlscan; SQLite's diverging spellings refused).
// Below it each engine holds on its own:
//
//   - SQLite opens the file with mode=ro, sets PRAGMA query_only=ON on each
//     connection, and installs an authorizer (the sqlite package's sqlitePolicy) that lets a
//     statement compile only if it reads.
//   - DuckDB opens the file with access_mode=READ_ONLY, external access
//     (files, network, extensions) off, extension autoloading off and the
//     configuration locked (the duckdb package's duckdbSettings, read back at open), and
//     prepares each text as exactly one statement.
//   - PostgreSQL refuses a role that can write at open (unless
//     Options.AllowWritableRole), runs every statement in a BEGIN READ ONLY
//     transaction that is always rolled back, over the extended protocol
//     (one statement per text), with SET LOCAL statement_timeout, in
//     sessions with standard_conforming_strings=on and a fixed search_path.
//
// The hostile tests run the shared hostile cases of each engine through
// Query and, separately, below the lexical gate.
//
// # Bounded
//
// Query returns at most maxRows rows (the extra one read only sets
// Truncated), every statement runs under Options.Timeout and the caller's
// context, and the end of either interrupts the engine (SQLite through
// sqlite3_interrupt even in the middle of rows.Next, see the sqlite package's connHandle; DuckDB
// through its interrupt; PostgreSQL through statement_timeout and a cancel).
// One SQLite value may not exceed 16 MiB, one PostgreSQL row 64 MiB.
// DuckDB and PostgreSQL run a statement that is one plain SELECT inside
// SELECT * FROM (…) LIMIT maxRows+1 (checked alone first), so the engine
// plans for and produces no more rows than Query reads; SQLite's rows
// stream, and stepping stops at the cap.
//
// # One value encoding
//
// Every result path (Query rows, profile ranges and samples) of every
// adapter encodes values the same way (EncodeValue, with each engine's own
// types converted first): int64 within ±(2^53-1) else a decimal string,
// float64, DECIMAL/NUMERIC as a number only when a double carries it
// exactly else its digits, text untouched, dates as YYYY-MM-DD, timestamps
// as "YYYY-MM-DD HH:MM:SS[.f][±HH:MM]" (with an offset, in UTC, for a
// timestamp with time zone), blobs as base64, UUIDs, intervals (ISO 8601)
// and huge integers as strings, NULL as nil.
//
// # Profiles
//
// Profiling (SQLProfiler, and the SQLite adapter's own) reads per table
// its row count; per column the distinct count, NULL fraction, range and
// samples (a column with many values: its most frequent value of each
// shape first, DiverseSamples, so '12.5 kg' shows beside '0.225 t'); for
// a text column of dates, numbers or quantities the values a cast reads
// as NULL (CountCastNulls); and the rows that repeat another exactly
// (CountDuplicateRows), for tables with no key and no unique column. For
// example, a cost log of 1,006 rows, 43 of them copies, gets
// Table.DuplicateRows 43, which the schema context and the warnings on a
// SUM over it say.
//
// # Errors
//
// Adapters return *Error with a Code (READ_ONLY_VIOLATION, TIMEOUT,
// CANCELLED, DATASOURCE_UNAVAILABLE, QUERY_FAILED), a message and hint safe
// to show (no file paths, no DSN), and the cause.
package source
