package source

import "testing"

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
		{"SELECT `a;b` FROM t", false, false, "SELECT"},
		{"SELECT [a;b] FROM t", false, false, "SELECT"},
		{"SELECT 1 -- ; DROP TABLE t", false, false, "SELECT"},
		{"SELECT 1 /*; DROP TABLE t; */", false, false, "SELECT"},
		{"SELECT 1 /*; DROP TABLE t; */ ; DROP TABLE t", false, true, "SELECT"},
		{"SELECT 1; /* trailing */ -- comment", false, false, "SELECT"},
		{"SELECT 1; /*", false, true, "SELECT"},    // SQLite reads a final "/*" as two tokens
		{"SELECT 1; /* x", false, false, "SELECT"}, // an unterminated comment runs to the end
		{"SELECT 'unterminated; DROP TABLE t", false, false, "SELECT"},
		{"SELECT 1;\v", false, true, "SELECT"}, // \v is not whitespace here
		{"SELECT 1\x00; DROP TABLE t", false, false, "SELECT"},
		{"/* monthly report */ DELETE FROM t", false, false, "DELETE"},
		{"-- weekly", true, false, ""},
		{"", true, false, ""},
		{" ; ; ", true, false, ""},
		{"/* a */ -- b\n", true, false, ""},
		{"(SELECT 1)", false, false, ""},
		{"CREATE TRIGGER x AFTER INSERT ON t BEGIN DELETE FROM t; END", false, true, "CREATE"},
	}
	for _, tt := range tests {
		got := shapeOf(tt.sql)
		if got.Empty != tt.empty || got.Multiple != tt.multiple || got.Keyword != tt.keyword {
			t.Errorf("shapeOf(%q) = %+v, want empty %v multiple %v keyword %q", tt.sql, got, tt.empty, tt.multiple, tt.keyword)
		}
	}
}
