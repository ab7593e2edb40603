package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// wantHostileCode is the code each case must fail with; anything not listed
// is READ_ONLY_VIOLATION.
var wantHostileCode = map[string]string{
	"-- weekly":               source.CodeQueryFailed, // no statement
	"SELECT * INTO t3 FROM t": source.CodeQueryFailed, // not SQLite syntax
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c": source.CodeTimeout,
}

// TestHostileCurated sends every sqlite and any line of the hostile curated
// SQL straight to Query against a copy of Chinook with a table t. Each must
// be refused with a typed error; afterwards the database file and its
// directory are byte-for-byte unchanged, no /tmp/hostile_* file named by the
// cases appeared or changed, and the adapter still answers.
func TestHostileCurated(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "sqlite")
	db := sourcetest.CopyToTemp(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	sourcetest.ExecWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	before := sourcetest.FilesOf(t, db, cases)

	s := openTest(t, db, source.Options{Timeout: time.Second})
	sourcetest.RunHostileQueries(t, s, cases, wantHostileCode, 10*time.Second, db)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before.CheckUnchanged(t)
}

// TestHostileBelowLexicalGate sends the same cases past Query's lexical
// check, straight to the query pool, so the engine-level layers (mode=ro,
// query_only, the authorizer) must hold on their own: every single
// statement is refused, and nothing changes whatever the driver does with
// multi-statement text.
func TestHostileBelowLexicalGate(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "sqlite")
	db := sourcetest.CopyToTemp(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	sourcetest.ExecWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	before := sourcetest.FilesOf(t, db, cases)

	s := openTest(t, db, source.Options{Timeout: time.Second})
	for _, c := range cases {
		shape, serr := source.ShapeOf("sqlite", c.SQL)
		_, err := s.run(context.Background(), s.query, c.SQL, nil, 10)
		if shape.Multiple || shape.Empty || serr != nil {
			t.Logf("%-70q multi/empty/unscannable: %v", c.SQL, err)
			continue
		}
		if err == nil {
			t.Errorf("%q: accepted by the engine", c.SQL)
			continue
		}
		se := sourcetest.AsError(t, err)
		t.Logf("%-70q %s", c.SQL, se)
		if se.Code != source.CodeReadOnly && se.Code != source.CodeQueryFailed && se.Code != source.CodeTimeout {
			t.Errorf("%q: code %s", c.SQL, se.Code)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before.CheckUnchanged(t)
}
