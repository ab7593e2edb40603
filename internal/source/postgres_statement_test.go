package source

import (
	"context"
	"os"
	"strings"
	"testing"
)

// pgLexCases are texts whose statement count depends on PostgreSQL's (and
// DuckDB's) lexical rules, with the count those engines see.
var pgLexCases = []struct {
	sql      string
	multiple bool
}{
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

func TestShapeOfPostgres(t *testing.T) {
	for _, tt := range pgLexCases {
		if got, err := shapeOfDialect("postgres", tt.sql); err != nil || got.Multiple != tt.multiple || got.Keyword != "SELECT" {
			t.Errorf("shapeOfDialect(postgres, %q) = %+v, want multiple %v", tt.sql, got, tt.multiple)
		}
	}
	tests := []struct {
		sql     string
		empty   bool
		keyword string
	}{
		{"/* a /* nested */ still comment */ -- x\n ;", true, ""},
		{"DO $$ BEGIN DELETE FROM t; END $$", false, "DO"},
		{"/* x */ SET default_transaction_read_only = off", false, "SET"},
		{"E'x'", false, ""},
	}
	for _, tt := range tests {
		if got, err := shapeOfDialect("postgres", tt.sql); err != nil || got.Empty != tt.empty || got.Multiple || got.Keyword != tt.keyword {
			t.Errorf("shapeOfDialect(postgres, %q) = %+v, want empty %v keyword %q", tt.sql, got, tt.empty, tt.keyword)
		}
	}
	// The gate uses these rules for PostgreSQL and DuckDB only.
	if err := CheckStatement("postgres", "DO $$ BEGIN DELETE FROM t; END $$"); err == nil || !strings.Contains(err.Msg, "only SELECT") {
		t.Errorf("DO block: %v", err)
	}
	if err := CheckStatement("sqlite", "SELECT $$a;b$$"); err == nil || !strings.Contains(err.Msg, "dollar-quoted") {
		t.Errorf("SQLite rules: %v", err)
	}
}

// engineSeesMultiple reports whether an engine refused text as more than
// one statement below the lexical gate.
func engineSeesMultiple(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "more than one statement") || strings.Contains(err.Error(), "multiple commands"))
}

// TestShapeOfPostgresAgainstEngines sends each case below the gate to
// DuckDB and PostgreSQL: the gate must never see one statement where an
// engine sees several.
func TestShapeOfPostgresAgainstEngines(t *testing.T) {
	d := openDuckTest(t, duckTempDB(t, "CREATE TABLE t (a INTEGER)"), Options{})
	engines := map[string]func(string) error{
		"duckdb": func(q string) error { _, err := d.fetch(context.Background(), q, nil, 1); return err },
	}
	if os.Getenv("NL2SQL_TEST_PG_DSN") != "" || os.Getenv("CI") != "" {
		f := newPGFixture(t, "CREATE TABLE t (a integer)")
		p := openPGTest(t, f.ReadOnly, Options{})
		engines["postgres"] = func(q string) error { _, err := p.fetch(context.Background(), q, nil, 1); return err }
	}
	for name, run := range engines {
		for _, tt := range pgLexCases {
			err := run(tt.sql)
			if engineSeesMultiple(err) != tt.multiple && !(tt.multiple && err != nil) {
				t.Errorf("%s: %q gave %v, want multiple %v", name, tt.sql, err, tt.multiple)
			}
			if shape, _ := shapeOfDialect(name, tt.sql); engineSeesMultiple(err) && !shape.Multiple {
				t.Errorf("%s sees several statements in %q, the gate one", name, tt.sql)
			}
		}
	}
}
