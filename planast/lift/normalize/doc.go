// Package normalize is the lift's first stage: it rewrites the SQL text,
// over the module's one SQL scanner (internal/sqlscan, SQLite's spellings
// read), into spellings PostgreSQL's parser reads, keeping the meaning and
// a map from every rewritten byte back to the original text, so that an
// error the parser or the lift reports points into the SQL the caller gave.
//
// It owns lexical rewrites only (backticks and brackets, SQLite's "" and
// ==, LIMIT a, b, JOIN without ON, SQLite's IS), DuckDB's top-level QUALIFY
// rewritten as a filter over a derived table, and reading names back as
// written (DoubleQuoted, IdentChain). It never parses a statement nor
// resolves a name: that is package lift, over pg_query's tree.
//
// # Worked example
//
//	n := normalize.SQL("SELECT `a b` FROM t JOIN u LIMIT 5, 10", "sqlite")
//	n.SQL          // SELECT "a b" FROM t JOIN u ON TRUE LIMIT 10 OFFSET 5
//	n.OrigPos(7)   // 7: the quote of "a b" stands where the backtick did
package normalize
