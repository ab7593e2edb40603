// Package postgres is the datasource adapter for a PostgreSQL database
// (OpenPostgres, *Postgres), on pgx: it refuses a role that can write at
// open (unless Options.AllowWritableRole), runs every statement in a
// BEGIN READ ONLY transaction that is always rolled back, over the
// extended protocol (one statement per text), with SET LOCAL
// statement_timeout, and runs a plain SELECT (checked alone with
// pg_query first) inside SELECT * FROM (…) LIMIT cap+1 so the server stops
// at the cap. Values leave through the shared encoding after PostgreSQL's
// own types (arrays, ranges, money, intervals, …) are converted. A pooled
// connection the server closed (a restart, a failover, idle connections
// killed: 57P01-57P03) is found when the transaction begins, before the
// statement runs, and the statement goes once more on a new connection.
//
// It never commits a transaction, never runs text the statement gate
// refused through Query, and never imports another adapter.
package postgres
