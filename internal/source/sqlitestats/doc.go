// Package sqlitestats registers on a modernc.org/sqlite driver the sample
// and population standard deviation and variance aggregates SQLite lacks
// (stddev_samp, stddev_pop, var_samp, var_pop), with PostgreSQL's meaning:
// NULL inputs are skipped, the result is a double, NULL when fewer than
// two values (samp) or no value (pop) were aggregated. The plan renderer
// calls them by these names on SQLite and the engine's own on PostgreSQL
// and DuckDB, so a standard deviation is the same number on every engine.
//
// The sums of the values and of their squares are kept exactly (1024-bit
// floats), so n·Σx² − (Σx)² does not cancel to noise over values like
// 1e9+1, 1e9+2, ... as it does in doubles (Welford's running mean, which
// DuckDB uses, is off in the 8th digit there); the result is rounded once,
// as PostgreSQL's, whose sums are exact for such values. A plain sqlite3 shell does not
// have these functions: the engine says so beside SQL that calls them.
package sqlitestats
