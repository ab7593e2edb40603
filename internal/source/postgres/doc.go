// Package postgres is the datasource adapter for a PostgreSQL database
// (OpenPostgres, *Postgres), on pgx: it refuses a role that can write at
// open (unless Options.AllowWritableRole), runs every statement in a
// BEGIN READ ONLY transaction that is always rolled back, over the
// extended protocol (one statement per text), with SET LOCAL
// statement_timeout, and runs a plain SELECT (checked alone with
// pg_query first) inside SELECT * FROM (…) LIMIT cap+1 so the server stops
// at the cap. Values leave through the shared encoding after PostgreSQL's
// own types (arrays, ranges, money, intervals, …) are converted.
//
// It never commits a transaction, never runs text the statement gate
// refused through Query, and never imports another adapter.
package postgres
