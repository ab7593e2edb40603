// Package sqlscan is nl2sql's one SQL scanner: PostgreSQL's own lexer
// (pg_query's Scan, cgo), wrapped so that every place that reads SQL text
// — the adapters' statement gate, the verified-query loader, the
// row-filter parser — splits it the same way.
//
// DuckDB's parser is derived from PostgreSQL's and shares its lexical rules
// (strings, E'…' and dollar quoting, nested comments, "…" identifiers).
// SQLite's tokenizer differs in a few spellings, and where it does the two
// scanners can disagree on where a token ends, so a ';' or a comment one
// of them sees may be hidden from the other. For dialect "sqlite",
// ScanDialect refuses those spellings with an *Error and a hint instead of
// guessing: `…` and […] identifiers, E'…' and $tag$…$tag$ strings, and a
// /* comment */ that holds another "/*" (PostgreSQL nests them, SQLite
// closes at the first "*/"). A NUL byte is refused in every dialect (the
// C scanner would stop reading there).
//
// # Worked example
//
//	toks, err := sqlscan.Scan("SELECT a::int FROM t -- note\n;")
//	// err == nil; toks are
//	//   Word "SELECT" (Keyword), Word "a", Op "::", Word "int" (Keyword),
//	//   Word "FROM" (Keyword), Word "t", Comment "-- note", Op ";"
//
//	_, err = sqlscan.ScanDialect("sqlite", "SELECT `a;b` FROM t")
//	// err is *sqlscan.Error: "`…` identifiers are not supported at byte 7",
//	// hint: write identifiers in double quotes.
package sqlscan
