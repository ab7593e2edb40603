package sqlscan

import (
	"errors"
	"strings"
	"testing"
)

func TestScanKinds(t *testing.T) {
	toks, err := Scan("SELECT a::int, \"b c\", 'x''y', E'\\n', $$d$$, 1.5, $1 FROM t -- note\n/* c */;")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, map[Kind]string{Word: "W", Quoted: "Q", String: "S", Number: "N", Param: "P", Op: "O", Comment: "C"}[tk.Kind]+":"+tk.Text)
	}
	want := []string{"W:SELECT", "W:a", "O:::", "W:int", "O:,", `Q:"b c"`, "O:,", "S:'x''y'", "O:,", `S:E'\n'`, "O:,", "S:$$d$$",
		"O:,", "N:1.5", "O:,", "P:$1", "W:FROM", "W:t", "C:-- note", "C:/* c */", "O:;"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !toks[0].Keyword || toks[1].Keyword || !toks[0].Is("select") {
		t.Errorf("keyword flags: %+v %+v", toks[0], toks[1])
	}
}

// A text the scanner cannot close, or that SQLite would split elsewhere
// than PostgreSQL, is refused with a typed error and a hint: a gate that
// guessed could let a ';' or a comment through that the engine sees.
func TestScanRefuses(t *testing.T) {
	tests := []struct{ dialect, sql, want string }{
		{"postgres", "SELECT 'open", "unterminated quoted string"},
		{"postgres", `SELECT "open`, "unterminated quoted identifier"},
		{"duckdb", "SELECT 1 /* /* */", "unterminated /* comment"},
		{"postgres", "SELECT 1\x00; DROP TABLE t", "NUL byte"},
		{"sqlite", "SELECT `a;b` FROM t", "`…` identifiers"},
		{"sqlite", "SELECT [a--] ; DROP TABLE t", "[…] identifiers"},
		{"sqlite", `SELECT E'\'; DROP TABLE t; --'`, "E'…' strings"},
		{"sqlite", "SELECT $a$; DROP TABLE t; $a$", "dollar-quoted"},
		{"sqlite", "SELECT 1 /* /* */ ; DROP TABLE t */", "holds another"},
	}
	for _, tt := range tests {
		_, err := ScanDialect(tt.dialect, tt.sql)
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(se.Msg, tt.want) {
			t.Errorf("ScanDialect(%s, %q) = %v, want an *Error containing %q", tt.dialect, tt.sql, err, tt.want)
			continue
		}
		if se.Hint == "" {
			t.Errorf("ScanDialect(%s, %q): no hint", tt.dialect, tt.sql)
		}
	}
	// The same spellings are PostgreSQL's and DuckDB's own: one token each.
	for _, sql := range []string{`SELECT E'\'; x'`, "SELECT $a$;$a$", "SELECT 1 /* /* */ */", "SELECT x[1]"} {
		if _, err := ScanDialect("duckdb", sql); err != nil {
			t.Errorf("ScanDialect(duckdb, %q) = %v", sql, err)
		}
	}
}

func TestScanSQLite(t *testing.T) {
	sql := "SELECT `a b`, [c;d], \"\" , 'it''s `x`' -- `y\nFROM `t``q` WHERE x = \"\""
	toks, err := ScanSQLite(sql)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, map[Kind]string{Word: "W", Quoted: "Q", String: "S", Number: "N", Param: "P", Op: "O", Comment: "C"}[tk.Kind]+":"+tk.Name())
		if sql[tk.Start:tk.End] != tk.Text {
			t.Errorf("token %q at %d..%d: the text there is %q", tk.Text, tk.Start, tk.End, sql[tk.Start:tk.End])
		}
	}
	want := []string{"W:SELECT", "Q:a b", "O:,", "Q:c;d", "O:,", `S:""`, "O:,", "S:'it''s `x`'", "C:-- `y", "W:FROM", "Q:t`q", "W:WHERE", "W:x", "O:=", `S:""`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for _, bad := range []string{"SELECT `open", "SELECT [open", "SELECT 'open"} {
		if _, err := ScanSQLite(bad); err == nil {
			t.Errorf("ScanSQLite(%q) accepted", bad)
		}
	}
}
