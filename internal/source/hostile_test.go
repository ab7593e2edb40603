package source

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// hostileCase is one line of shared/hostile/curated_sql.txt.
type hostileCase struct {
	engine, sql string
}

func readHostile(t *testing.T) []hostileCase {
	t.Helper()
	f, err := os.Open(sharedPath(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []hostileCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		engine, sql, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		if engine == "sqlite" || engine == "any" {
			cases = append(cases, hostileCase{engine, sql})
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
	"-- weekly":               CodeQueryFailed, // no statement
	"SELECT * INTO t3 FROM t": CodeQueryFailed, // not SQLite syntax
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c": CodeTimeout,
}

// TestHostileCurated sends every sqlite and any line of the hostile curated
// SQL straight to Query against a copy of Chinook with a table t. Each must
// be refused with a typed error; afterwards the database file and its
// directory are byte-for-byte unchanged, no /tmp/hostile_* file named by the
// cases appeared or changed, and the adapter still answers.
func TestHostileCurated(t *testing.T) {
	cases := readHostile(t)
	db := copyToTemp(t, sharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	execWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := fileSum(t, db), dirListing(t, filepath.Dir(db))

	tmpRe := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	tmpBefore := map[string]string{}
	for _, c := range cases {
		for _, p := range tmpRe.FindAllString(c.sql, -1) {
			tmpBefore[p] = statString(p)
		}
	}

	s := openTest(t, db, Options{Timeout: time.Second})
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			start := time.Now()
			res, err := s.Query(context.Background(), c.sql, nil, 10)
			if err == nil {
				t.Fatalf("accepted, returned %+v", res)
			}
			se := asError(t, err)
			want := CodeReadOnly
			if w, ok := wantHostileCode[c.sql]; ok {
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
	if got := fileSum(t, db); got != sum {
		t.Error("the database file changed")
	}
	if got := dirListing(t, filepath.Dir(db)); !equalMaps(got, listing) {
		t.Errorf("the database directory changed: %v, was %v", got, listing)
	}
	for p, before := range tmpBefore {
		if after := statString(p); after != before {
			t.Errorf("%s changed: %q → %q", p, before, after)
		}
	}
}

// statString describes a file's existence, size and time.
func statString(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "absent"
	}
	return fi.ModTime().String() + " " + fi.Mode().String()
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestHostileBelowLexicalGate sends the same cases past Query's lexical
// check, straight to the query pool, so the engine-level layers (mode=ro,
// query_only, the authorizer) must hold on their own: every single
// statement is refused, and nothing changes whatever the driver does with
// multi-statement text.
func TestHostileBelowLexicalGate(t *testing.T) {
	cases := readHostile(t)
	db := copyToTemp(t, sharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"))
	execWritable(t, db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := fileSum(t, db), dirListing(t, filepath.Dir(db))
	tmpRe := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	tmpBefore := map[string]string{}
	for _, c := range cases {
		for _, p := range tmpRe.FindAllString(c.sql, -1) {
			tmpBefore[p] = statString(p)
		}
	}

	s := openTest(t, db, Options{Timeout: time.Second})
	for _, c := range cases {
		shape, serr := shapeOfDialect("sqlite", c.sql)
		_, err := s.run(context.Background(), s.query, c.sql, nil, 10)
		if shape.Multiple || shape.Empty || serr != nil {
			t.Logf("%-70q multi/empty/unscannable: %v", c.sql, err)
			continue
		}
		if err == nil {
			t.Errorf("%q: accepted by the engine", c.sql)
			continue
		}
		se := asError(t, err)
		t.Logf("%-70q %s", c.sql, se)
		if se.Code != CodeReadOnly && se.Code != CodeQueryFailed && se.Code != CodeTimeout {
			t.Errorf("%q: code %s", c.sql, se.Code)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fileSum(t, db); got != sum {
		t.Error("the database file changed")
	}
	if got := dirListing(t, filepath.Dir(db)); !equalMaps(got, listing) {
		t.Errorf("the database directory changed: %v, was %v", got, listing)
	}
	for p, before := range tmpBefore {
		if after := statString(p); after != before {
			t.Errorf("%s changed: %q → %q", p, before, after)
		}
	}
}
