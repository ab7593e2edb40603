package sourcetest

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
)

// HostileCase is one line of shared/hostile/curated_sql.txt.
type HostileCase struct {
	Engine, SQL string
}

// StatString describes a file's existence, size and time.
func StatString(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "absent"
	}
	return fi.ModTime().String() + " " + fi.Mode().String()
}

// EqualMaps reports whether a and b hold the same entries.
func EqualMaps(a, b map[string]string) bool {
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

// HostileCasesFor reads the lines of shared/hostile/curated_sql.txt for
// engine and for "any".
func HostileCasesFor(t *testing.T, engine string) []HostileCase {
	t.Helper()
	f, err := os.Open(SharedPath(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []HostileCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		e, sql, ok := strings.Cut(sc.Text(), "\t")
		if ok && (e == engine || e == "any") {
			cases = append(cases, HostileCase{e, sql})
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

// TmpState describes every /tmp/hostile* entry and every path the cases
// name, so a test can tell that none appeared or changed.
func TmpState(t *testing.T, cases []HostileCase) map[string]string {
	t.Helper()
	m := map[string]string{}
	matches, _ := filepath.Glob("/tmp/hostile*")
	for _, p := range matches {
		m[p] = StatString(p)
	}
	re := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	for _, c := range cases {
		for _, p := range re.FindAllString(c.SQL, -1) {
			m[p] = StatString(p)
		}
	}
	return m
}

// RunHostileQueries sends every case straight to q's Query, each as a
// subtest of its own. Each must be refused with the code want names for
// it (READ_ONLY_VIOLATION where it names none) within limit, with a
// message and hint that do not name db (unless db is ""). Afterwards
// SELECT count(*) FROM t must still answer 2: the adapter still works.
func RunHostileQueries(t *testing.T, q Querier, cases []HostileCase, want map[string]string, limit time.Duration, db string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.SQL, func(t *testing.T) {
			start := time.Now()
			res, err := q.Query(context.Background(), c.SQL, nil, 10)
			if err == nil {
				t.Fatalf("accepted, returned %+v", res)
			}
			se := AsError(t, err)
			code := source.CodeReadOnly
			if w, ok := want[c.SQL]; ok {
				code = w
			}
			if se.Code != code {
				t.Errorf("code %s (%v), want %s", se.Code, se, code)
			}
			if d := time.Since(start); d > limit {
				t.Errorf("took %s", d)
			}
			if db != "" && (strings.Contains(se.Msg, db) || strings.Contains(se.Hint, db)) {
				t.Errorf("message names the file: %q / %q", se.Msg, se.Hint)
			}
		})
	}
	res, err := q.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
}

// Files is what a hostile test of a file database compares before and
// after: the file's sum, its directory's listing and the /tmp/hostile*
// entries (TmpState).
type Files struct {
	db, sum      string
	listing, tmp map[string]string
	cases        []HostileCase
}

// FilesOf records the state of db, its directory and the /tmp/hostile*
// entries the cases name.
func FilesOf(t *testing.T, db string, cases []HostileCase) Files {
	t.Helper()
	return Files{db: db, sum: FileSum(t, db), listing: DirListing(t, filepath.Dir(db)), tmp: TmpState(t, cases), cases: cases}
}

// CheckUnchanged fails the test when the database file, its directory or
// the /tmp/hostile* entries differ from what FilesOf recorded.
func (f Files) CheckUnchanged(t *testing.T) {
	t.Helper()
	if got := FileSum(t, f.db); got != f.sum {
		t.Error("the database file changed")
	}
	if got := DirListing(t, filepath.Dir(f.db)); !EqualMaps(got, f.listing) {
		t.Errorf("the database directory changed: %v, was %v", got, f.listing)
	}
	if got := TmpState(t, f.cases); !EqualMaps(got, f.tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, f.tmp)
	}
}
