package sqlite

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

func readHostile(t *testing.T) []sourcetest.HostileCase {
	t.Helper()
	f, err := os.Open(sourcetest.SharedPath(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []sourcetest.HostileCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		engine, sql, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		if engine == "sqlite" || engine == "any" {
			cases = append(cases, sourcetest.HostileCase{Engine: engine, SQL: sql})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("read only %d sqlite/any cases", len(cases))
	}
	return cases
}

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
	cases := readHostile(t)
	db := sourcetest.CopyToTemp(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	sourcetest.ExecWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := sourcetest.FileSum(t, db), sourcetest.DirListing(t, filepath.Dir(db))

	tmpRe := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	tmpBefore := map[string]string{}
	for _, c := range cases {
		for _, p := range tmpRe.FindAllString(c.SQL, -1) {
			tmpBefore[p] = sourcetest.StatString(p)
		}
	}

	s := openTest(t, db, source.Options{Timeout: time.Second})
	for _, c := range cases {
		t.Run(c.SQL, func(t *testing.T) {
			start := time.Now()
			res, err := s.Query(context.Background(), c.SQL, nil, 10)
			if err == nil {
				t.Fatalf("accepted, returned %+v", res)
			}
			se := sourcetest.AsError(t, err)
			want := source.CodeReadOnly
			if w, ok := wantHostileCode[c.SQL]; ok {
				want = w
			}
			if se.Code != want {
				t.Errorf("code %s (%v), want %s", se.Code, se, want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
			if strings.Contains(se.Msg, db) || strings.Contains(se.Hint, db) {
				t.Errorf("message names the file: %q / %q", se.Msg, se.Hint)
			}
		})
	}

	res, err := s.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := sourcetest.FileSum(t, db); got != sum {
		t.Error("the database file changed")
	}
	if got := sourcetest.DirListing(t, filepath.Dir(db)); !sourcetest.EqualMaps(got, listing) {
		t.Errorf("the database directory changed: %v, was %v", got, listing)
	}
	for p, before := range tmpBefore {
		if after := sourcetest.StatString(p); after != before {
			t.Errorf("%s changed: %q → %q", p, before, after)
		}
	}
}

// TestHostileBelowLexicalGate sends the same cases past Query's lexical
// check, straight to the query pool, so the engine-level layers (mode=ro,
// query_only, the authorizer) must hold on their own: every single
// statement is refused, and nothing changes whatever the driver does with
// multi-statement text.
func TestHostileBelowLexicalGate(t *testing.T) {
	cases := readHostile(t)
	db := sourcetest.CopyToTemp(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	sourcetest.ExecWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := sourcetest.FileSum(t, db), sourcetest.DirListing(t, filepath.Dir(db))
	tmpRe := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	tmpBefore := map[string]string{}
	for _, c := range cases {
		for _, p := range tmpRe.FindAllString(c.SQL, -1) {
			tmpBefore[p] = sourcetest.StatString(p)
		}
	}

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
	if got := sourcetest.FileSum(t, db); got != sum {
		t.Error("the database file changed")
	}
	if got := sourcetest.DirListing(t, filepath.Dir(db)); !sourcetest.EqualMaps(got, listing) {
		t.Errorf("the database directory changed: %v, was %v", got, listing)
	}
	for p, before := range tmpBefore {
		if after := sourcetest.StatString(p); after != before {
			t.Errorf("%s changed: %q → %q", p, before, after)
		}
	}
}
