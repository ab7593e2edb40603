package duckdb

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// wantDuckHostileCode is the code each DuckDB case must fail with through
// Query; anything not listed is READ_ONLY_VIOLATION.
var wantDuckHostileCode = map[string]string{
	"-- weekly":                   source.CodeQueryFailed, // no statement
	"SELECT * INTO t3 FROM t":     source.CodeQueryFailed, // not DuckDB syntax
	"SELECT * FROM '/etc/passwd'": source.CodeQueryFailed, // no replacement scan of files: "no table /etc/passwd"
}

// TestDuckDBHostileCurated sends every duckdb and any line of the hostile
// curated SQL straight to Query. Each must be refused with a typed error;
// afterwards the database file and its directory are unchanged, no
// /tmp/hostile* entry appeared or changed, and the adapter still answers.
func TestDuckDBHostileCurated(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "duckdb")
	db := sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	before := sourcetest.FilesOf(t, db, cases)

	d := openDuckTest(t, db, source.Options{Timeout: time.Second})
	sourcetest.RunHostileQueries(t, d, cases, wantDuckHostileCode, 10*time.Second, db)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	before.CheckUnchanged(t)
}

// TestDuckDBHostileBelowLexicalGate sends the same cases past Query's
// lexical check, straight to fetch, so the engine-level settings and the
// single-statement Prepare must hold on their own.
func TestDuckDBHostileBelowLexicalGate(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "duckdb")
	db := sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	before := sourcetest.FilesOf(t, db, cases)

	d := openDuckTest(t, db, source.Options{Timeout: time.Second})
	for _, c := range cases {
		_, err := d.fetch(context.Background(), c.SQL, nil, 10)
		if err == nil {
			t.Errorf("%q: accepted by the engine", c.SQL)
			continue
		}
		se := sourcetest.AsError(t, err)
		t.Logf("%-70q %s", c.SQL, se)
		if se.Code != source.CodeReadOnly && se.Code != source.CodeQueryFailed {
			t.Errorf("%q: code %s", c.SQL, se.Code)
		}
		if shape, _ := source.ShapeOf("duckdb", c.SQL); shape.Multiple && se.Code != source.CodeReadOnly {
			t.Errorf("%q: several statements gave %s, want %s", c.SQL, se.Code, source.CodeReadOnly)
		}
	}
	res, err := d.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	before.CheckUnchanged(t)
}
