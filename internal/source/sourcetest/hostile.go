package sourcetest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
