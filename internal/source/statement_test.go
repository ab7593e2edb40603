package source

import (
	"strings"
	"testing"
)

func TestShapeOf(t *testing.T) {
	tests := []struct {
		sql      string
		empty    bool
		multiple bool
		keyword  string
	}{
		{"SELECT 1", false, false, "SELECT"},
		{"select 1;", false, false, "SELECT"},
		{"  SELECT 1 ; ;; -- done\n /* end */ ", false, false, "SELECT"},
		{"with x as (select 1) select * from x", false, false, "WITH"},
		{"VALUES (1)", false, false, "VALUES"},
		{"SELECT 1; SELECT 2", false, true, "SELECT"},
		{"SELECT 1;DELETE FROM t;", false, true, "SELECT"},
		{"SELECT ';' AS x", false, false, "SELECT"},
		{"SELECT 'it''s; fine'", false, false, "SELECT"},
		{`SELECT "a;b" FROM t`, false, false, "SELECT"},
		{`SELECT "a"";b" FROM t`, false, false, "SELECT"},
		{"SELECT 1 -- ; DROP TABLE t", false, false, "SELECT"},
		{"SELECT 1 /*; DROP TABLE t; */", false, false, "SELECT"},
		{"SELECT 1 /*; DROP TABLE t; */ ; DROP TABLE t", false, true, "SELECT"},
		{"SELECT 1; /* trailing */ -- comment", false, false, "SELECT"},
		{"SELECT 1;\v", false, false, "SELECT"}, // \v is whitespace to PostgreSQL's scanner; SQLite refuses it itself
		{"/* monthly report */ DELETE FROM t", false, false, "DELETE"},
		{"-- weekly", true, false, ""},
		{"", true, false, ""},
		{" ; ; ", true, false, ""},
		{"/* a */ -- b\n", true, false, ""},
		{"(SELECT 1)", false, false, "SELECT"},
		{"((SELECT 1) UNION SELECT 2) EXCEPT SELECT 3", false, false, "SELECT"},
		{"(DELETE FROM t)", false, false, "DELETE"},
		{"TABLE t", false, false, "TABLE"},
		{"CREATE TRIGGER x AFTER INSERT ON t BEGIN DELETE FROM t; END", false, true, "CREATE"},
	}
	for _, tt := range tests {
		got, err := ShapeOf("sqlite", tt.sql)
		if err != nil || got.Empty != tt.empty || got.Multiple != tt.multiple || got.Keyword != tt.keyword {
			t.Errorf("shapeOfDialect(sqlite, %q) = %+v, %v, want empty %v multiple %v keyword %q", tt.sql, got, err, tt.empty, tt.multiple, tt.keyword)
		}
	}
}

// The texts SQLite's tokenizer would split elsewhere than PostgreSQL's, or
// that do not scan, never pass the gate: a guess could hide a second
// statement from it.
func TestCheckStatementRefusesUnscannable(t *testing.T) {
	tests := []struct{ dialect, sql, code, want string }{
		{"sqlite", "SELECT `a;b` FROM t", CodeQueryFailed, "identifiers are not supported"},
		{"sqlite", "SELECT [a--] ; DROP TABLE t", CodeQueryFailed, "identifiers are not supported"},
		{"sqlite", `SELECT E'\'; DROP TABLE t; --'`, CodeQueryFailed, "E'…'"},
		{"sqlite", "SELECT $$a;b$$", CodeQueryFailed, "dollar-quoted"},
		{"sqlite", "SELECT 1 /* /* */ ; DROP TABLE t */", CodeQueryFailed, "holds another"},
		{"sqlite", "SELECT 1; /* x", CodeQueryFailed, "unterminated"},
		{"sqlite", "SELECT 'unterminated; DROP TABLE t", CodeQueryFailed, "unterminated"},
		{"sqlite", "SELECT 1\x00; DROP TABLE t", CodeQueryFailed, "NUL"},
		{"postgres", "SELECT 1 /* /* */ ; SELECT 2", CodeQueryFailed, "unterminated"},
		{"duckdb", "TABLE t", CodeReadOnly, "only SELECT"},
		{"postgres", "(DELETE FROM t RETURNING *)", CodeReadOnly, "only SELECT"},
	}
	for _, tt := range tests {
		err := CheckStatement(tt.dialect, tt.sql)
		if err == nil || err.Code != tt.code || !strings.Contains(err.Msg, tt.want) || err.Hint == "" {
			t.Errorf("CheckStatement(%s, %q) = %v, want %s containing %q with a hint", tt.dialect, tt.sql, err, tt.code, tt.want)
		}
	}
	for _, sql := range []string{"(SELECT 1) UNION SELECT 2", "WITH a AS (SELECT 1) SELECT * FROM a", "VALUES (1)"} {
		for _, d := range []string{"sqlite", "duckdb", "postgres"} {
			if err := CheckStatement(d, sql); err != nil {
				t.Errorf("CheckStatement(%s, %q) = %v", d, sql, err)
			}
		}
	}
}
