package curated

import (
	"slices"
	"strings"
	"testing"
)

func TestPrepare(t *testing.T) {
	tests := []struct {
		dialect, sql, want string
		order              []string
	}{
		{"sqlite", "SELECT a FROM t WHERE y = :year", "SELECT a FROM t WHERE y = $1", []string{"year"}},
		{"sqlite", "SELECT :a, :b, :a", "SELECT $1, $2, $1", []string{"a", "b"}},
		{"sqlite", "SELECT ':x', \":y\" -- :c\n/* :d */", "SELECT ':x', \":y\"  \n ", nil},
		{"postgres", "SELECT x::int, :v::text FROM t", "SELECT x::int, $1::text FROM t", []string{"v"}},
		{"postgres", "SELECT 1 /* a /* nested */ still comment */ + :p", "SELECT 1   + $1", []string{"p"}},
		{"sqlite", "SELECT 'it''s :no'", "SELECT 'it''s :no'", nil},
		{"duckdb", "SELECT x[1:2] FROM t", "SELECT x[1:2] FROM t", nil},
		{"sqlite", "SELECT :é", "SELECT $1", []string{"é"}},
	}
	for _, tt := range tests {
		p, err := prepare(tt.sql, tt.dialect)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		if p.parse != tt.want || !slices.Equal(p.order, tt.order) {
			t.Errorf("prepare(%q) = %q %v, want %q %v", tt.sql, p.parse, p.order, tt.want, tt.order)
		}
	}
}

func TestPrepareRefuses(t *testing.T) {
	tests := []struct{ dialect, sql, want string }{
		{"sqlite", "SELECT 1\x00; DROP TABLE t", "NUL"},
		{"sqlite", "SELECT 'open", "unterminated quoted string"},
		{"sqlite", "SELECT \"open", "unterminated quoted identifier"},
		{"sqlite", "SELECT 1 /* open", "unterminated /* comment"},
		{"postgres", "SELECT 1 /* a /* b */", "unterminated /* comment"}, // nested: still open
		// SQLite spellings PostgreSQL's scanner reads otherwise: refused with a hint, never guessed.
		{"sqlite", "SELECT [open", "[…] identifiers"},
		{"sqlite", "SELECT `:z` FROM t", "`…` identifiers"},
		{"sqlite", "SELECT 1 /* a /* not nested */ + :p", `remove the inner "/*"`},
		{"postgres", "SELECT $$; DROP TABLE t; $$", "dollar"},
		{"duckdb", "SELECT * FROM t WHERE a = $1", "dollar"},
		{"sqlite", "SELECT * FROM t WHERE a = ?", "positional"},
		{"sqlite", "SELECT * FROM t WHERE a = ?1", "positional"},
		{"postgres", "SELECT E'\\'; DROP TABLE t; --'", "prefixed"},
		{"sqlite", "SELECT X'00'", "prefixed"},
		{"postgres", "SELECT U&'\\0041'", "prefixed"},
		{"postgres", "SELECT U&\"a\"", "U&"},
	}
	for _, tt := range tests {
		_, err := prepare(tt.sql, tt.dialect)
		if err == nil || err.(*Error).Code != CodeLexical || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("prepare(%q) = %v, want LEXICAL with %q", tt.sql, err, tt.want)
		}
	}
}

func TestPlaceholders(t *testing.T) {
	in := `SELECT $1, '$2', "$3" FROM t WHERE a = $12`
	if got := placeholders(in, "sqlite"); got != `SELECT ?1, '$2', "$3" FROM t WHERE a = ?12` {
		t.Errorf("sqlite: %s", got)
	}
	for _, d := range []string{"postgres", "duckdb"} {
		if got := placeholders(in, d); got != in {
			t.Errorf("%s: %s", d, got)
		}
	}
}

func TestNameSpan(t *testing.T) {
	tests := []struct {
		text       string
		end, parts int
		last       string
	}{
		{"Customer c", 8, 1, "Customer"},
		{"main.Customer WHERE", 13, 2, "Customer"},
		{"main . \"Cust omer\" x", 18, 2, `"Cust omer"`},
		{`"a""b"`, 6, 1, `"a""b"`},
	}
	for _, tt := range tests {
		end, last, parts, err := nameSpan(tt.text, 0)
		if err != nil || end != tt.end || last != tt.last || parts != tt.parts {
			t.Errorf("nameSpan(%q) = %d %q %d %v", tt.text, end, last, parts, err)
		}
	}
	if _, _, _, err := nameSpan("(SELECT", 0); err == nil {
		t.Error("no name")
	}
}
