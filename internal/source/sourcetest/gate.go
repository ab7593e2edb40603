package sourcetest

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// LexCase is a query text and whether an engine sees more than one
// statement in it.
type LexCase struct {
	SQL      string
	Multiple bool
}

// PGLexCases are texts whose statement count depends on PostgreSQL's (and
// DuckDB's) lexical rules, with the count those engines see.
var PGLexCases = []LexCase{
	{`SELECT E'\''; SELECT 2 --'`, true}, // E'\'' is one quote; SQLite's rules would see one statement
	{`SELECT e'\\'; SELECT 2`, true},
	{`SELECT 'a\'; SELECT 2 --'`, true}, // standard strings: backslash is a character
	{`SELECT 'it''s; fine'`, false},
	{`SELECT $$a;b$$`, false},
	{`SELECT $x$a;$$;b$x$`, false},
	{`SELECT $x$a$y$;$x$; SELECT 2`, true},
	{`SELECT 1 /* /* */ ; SELECT 2; */`, false}, // comments nest
	{`SELECT 1 /* /* */ */ ; SELECT 2`, true},
	{`SELECT "a;b" FROM (SELECT 1 AS "a;b") AS s`, false},
	{`SELECT a$b FROM (SELECT 1 AS a$b) AS s; SELECT 2`, true}, // "$" inside a word opens no string
	{`SELECT 'x' AS "$$"; SELECT 2`, true},
	{`SELECT U&'a;b'`, false},
	{"SELECT 1 -- ; SELECT 2\n", false},
	{"SELECT 1 -- x\n; SELECT 2", true},
	{"SELECT `a; SELECT 2`", true}, // backticks quote nothing
	{"SELECT ARRAY[1]; SELECT 2", true},
}

// engineSeesMultiple reports whether an engine refused text as more than
// one statement below the lexical gate.
func engineSeesMultiple(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "more than one statement") || strings.Contains(err.Error(), "multiple commands"))
}

// CheckGateAgainstEngine sends each of PGLexCases below the gate to an
// engine (run) of dialect: the gate must never see one statement where the
// engine sees several.
func CheckGateAgainstEngine(t *testing.T, dialect string, run func(string) error) {
	t.Helper()
	for _, tt := range PGLexCases {
		err := run(tt.SQL)
		if engineSeesMultiple(err) != tt.Multiple && !(tt.Multiple && err != nil) {
			t.Errorf("%s: %q gave %v, want multiple %v", dialect, tt.SQL, err, tt.Multiple)
		}
		if shape, _ := source.ShapeOf(dialect, tt.SQL); engineSeesMultiple(err) && !shape.Multiple {
			t.Errorf("%s sees several statements in %q, the gate one", dialect, tt.SQL)
		}
	}
}
