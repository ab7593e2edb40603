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

// hostileCasesFor reads the lines of shared/hostile/curated_sql.txt for
// engine and for "any".
func hostileCasesFor(t *testing.T, engine string) []hostileCase {
	t.Helper()
	f, err := os.Open(sharedPath(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []hostileCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		e, sql, ok := strings.Cut(sc.Text(), "\t")
		if ok && (e == engine || e == "any") {
			cases = append(cases, hostileCase{e, sql})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("read only %d %s/any cases", len(cases), engine)
	}
	return cases
}

// tmpState describes every /tmp/hostile* entry and every path the cases
// name, so a test can tell that none appeared or changed.
func tmpState(t *testing.T, cases []hostileCase) map[string]string {
	t.Helper()
	m := map[string]string{}
	matches, _ := filepath.Glob("/tmp/hostile*")
	for _, p := range matches {
		m[p] = statString(p)
	}
	re := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	for _, c := range cases {
		for _, p := range re.FindAllString(c.sql, -1) {
			m[p] = statString(p)
		}
	}
	return m
}

// wantDuckHostileCode is the code each DuckDB case must fail with through
// Query; anything not listed is READ_ONLY_VIOLATION.
var wantDuckHostileCode = map[string]string{
	"-- weekly":                   CodeQueryFailed, // no statement
	"SELECT * INTO t3 FROM t":     CodeQueryFailed, // not DuckDB syntax
	"SELECT * FROM '/etc/passwd'": CodeQueryFailed, // no replacement scan of files: "no table /etc/passwd"
}

// TestDuckDBHostileCurated sends every duckdb and any line of the hostile
// curated SQL straight to Query. Each must be refused with a typed error;
// afterwards the database file and its directory are unchanged, no
// /tmp/hostile* entry appeared or changed, and the adapter still answers.
func TestDuckDBHostileCurated(t *testing.T) {
	cases := hostileCasesFor(t, "duckdb")
	db := duckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing, tmp := fileSum(t, db), dirListing(t, filepath.Dir(db)), tmpState(t, cases)

	d := openDuckTest(t, db, Options{Timeout: time.Second})
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			start := time.Now()
			res, err := d.Query(context.Background(), c.sql, nil, 10)
			if err == nil {
				t.Fatalf("accepted, returned %+v", res)
			}
			se := asError(t, err)
			want := CodeReadOnly
			if w, ok := wantDuckHostileCode[c.sql]; ok {
				want = w
			}
			if se.Code != want {
				t.Errorf("code %s (%v), want %s", se.Code, se, want)
			}
			if dt := time.Since(start); dt > 10*time.Second {
				t.Errorf("took %s", dt)
			}
			if strings.Contains(se.Msg, db) || strings.Contains(se.Hint, db) {
				t.Errorf("message names the file: %q / %q", se.Msg, se.Hint)
			}
		})
	}
	res, err := d.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	checkUnchanged(t, db, sum, listing, cases, tmp)
}

// checkUnchanged fails the test when the database file, its directory or
// the /tmp/hostile* entries differ from before.
func checkUnchanged(t *testing.T, db, sum string, listing map[string]string, cases []hostileCase, tmp map[string]string) {
	t.Helper()
	if got := fileSum(t, db); got != sum {
		t.Error("the database file changed")
	}
	if got := dirListing(t, filepath.Dir(db)); !equalMaps(got, listing) {
		t.Errorf("the database directory changed: %v, was %v", got, listing)
	}
	if got := tmpState(t, cases); !equalMaps(got, tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, tmp)
	}
}

// TestDuckDBHostileBelowLexicalGate sends the same cases past Query's
// lexical check, straight to fetch, so the engine-level settings and the
// single-statement Prepare must hold on their own.
func TestDuckDBHostileBelowLexicalGate(t *testing.T) {
	cases := hostileCasesFor(t, "duckdb")
	db := duckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing, tmp := fileSum(t, db), dirListing(t, filepath.Dir(db)), tmpState(t, cases)

	d := openDuckTest(t, db, Options{Timeout: time.Second})
	for _, c := range cases {
		_, err := d.fetch(context.Background(), c.sql, nil, 10)
		if err == nil {
			t.Errorf("%q: accepted by the engine", c.sql)
			continue
		}
		se := asError(t, err)
		t.Logf("%-70q %s", c.sql, se)
		if se.Code != CodeReadOnly && se.Code != CodeQueryFailed {
			t.Errorf("%q: code %s", c.sql, se.Code)
		}
		if shape, _ := shapeOfDialect("duckdb", c.sql); shape.Multiple && se.Code != CodeReadOnly {
			t.Errorf("%q: several statements gave %s, want %s", c.sql, se.Code, CodeReadOnly)
		}
	}
	res, err := d.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	checkUnchanged(t, db, sum, listing, cases, tmp)
}
