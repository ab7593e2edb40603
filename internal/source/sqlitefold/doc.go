// Package sqlitefold registers on a modernc.org/sqlite driver
// unicode_upper and unicode_lower, which fold every letter where SQLite's
// own upper and lower fold only A-Z. The renderer writes a plan's UPPER,
// LOWER and case_insensitive like with them on SQLite, so they mean there
// what they mean on DuckDB and on PostgreSQL (whose renderer folds under a
// UTF-8 collation when the database's own is C): Unicode's one-to-one
// case mapping, so "ÅNGSTRÖM" lower-cases to "ångström" and '%ångström%'
// matches "Zoë Ångström" case-insensitively. The one letter whose capital
// is not one-to-one in that mapping, ß, upper-cases to ẞ, as DuckDB's
// does.
//
// SQLite's own upper and lower are not replaced: a function an application
// registers is not innocuous to SQLite, so a view, index or check
// constraint of the user's database that called upper() would fail under
// trusted_schema = OFF. A plain sqlite3 shell lacks these functions; the
// engine says so beside SQL that calls them.
//
// Worked example:
//
//	d := &sqlite.Driver{}
//	_ = sqlitefold.Register(d)
//	// on d's connections: SELECT unicode_lower('ÉCOLE'), unicode_upper('straße')
//	// → 'école', 'STRAẞE'
package sqlitefold
