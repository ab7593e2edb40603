package eval

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the repository's root directory.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// testRoot builds a benchmark database root in a temporary directory:
// concert_singer from testdata/concert_singer.sql, and chinook copied from
// examples/.
func testRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "concert_singer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "concert_singer.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "concert_singer.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "chinook"), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(filepath.Join(repoRoot(), "examples", "chinook", "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(filepath.Join(root, "chinook", "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return root
}

// sliceWant is the expected outcome of the committed slices: every case
// passes but these.
var sliceWant = map[string]string{
	"spider-0008": StatusUnsupported, // select max(capacity), average: SQLite's bare column next to MAX
	"bird-10":     StatusUnsupported, // GROUP_CONCAT
	"bird-11":     StatusPass,        // CURRENT_TIMESTAMP, lifted since the plan language has it
	"bird-16":     StatusUnsupported, // strftime('%m') as text
}

func checkSlice(t *testing.T, r *Report, n int) {
	t.Helper()
	if r.Total != n || len(r.Cases) != n {
		t.Fatalf("total %d, %d cases; want %d", r.Total, len(r.Cases), n)
	}
	for _, c := range r.Cases {
		want := StatusPass
		if w, ok := sliceWant[c.ID]; ok {
			want = w
		}
		if c.Status != want {
			t.Errorf("%s: %s (%s); want %s\n%s", c.ID, c.Status, c.Reason, want, c.SQL)
		}
		if c.Status == StatusPass && (c.SQL == "" || c.Plan == nil) {
			t.Errorf("%s passed without SQL or plan", c.ID)
		}
	}
	if r.Counts.Pass+r.Counts.Fail+r.Counts.Unsupported+r.Counts.Error != r.Total {
		t.Errorf("counts %+v do not add up to %d", r.Counts, r.Total)
	}
	if r.Timings.Prepare.N == 0 || r.Timings.Prepare.MedianUS <= 0 || r.Timings.Prepare.P95US < r.Timings.Prepare.MedianUS {
		t.Errorf("timings %+v", r.Timings.Prepare)
	}
}

func runSlices(t *testing.T, engine, dsn string) {
	root := testRoot(t)
	for _, s := range []struct {
		suite, file string
		n           int
	}{
		{SuiteSpider, "spider_slice.json", 25},
		{SuiteBird, "bird_slice.json", 22},
	} {
		t.Run(s.suite, func(t *testing.T) {
			r, err := Run(context.Background(), Options{Suite: s.suite, File: filepath.Join("testdata", s.file), DBRoot: root, Engine: engine, PGDSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			checkSlice(t, r, s.n)
			if t.Failed() {
				t.Log("\n" + r.Summary())
			}
		})
	}
}

// TestRunSlicesSQLite runs the committed Spider and BIRD slices end to end
// on SQLite.
func TestRunSlicesSQLite(t *testing.T) { runSlices(t, EngineSQLite, "") }

// TestRunSlicesDuckDB runs them on copies in DuckDB.
func TestRunSlicesDuckDB(t *testing.T) { runSlices(t, EngineDuckDB, "") }

// TestRunSlicesPostgres runs them on copies in PostgreSQL: the server of
// NL2SQL_TEST_PG_DSN (skipped without it, failed without it under CI).
func TestRunSlicesPostgres(t *testing.T) {
	dsn := os.Getenv("NL2SQL_TEST_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("NL2SQL_TEST_PG_DSN is not set (CI is set)")
		}
		t.Skip("NL2SQL_TEST_PG_DSN is not set")
	}
	runSlices(t, EnginePostgres, dsn)
}

// TestReportJSON checks the report's JSON shape and that a case's predicted
// SQL is the rendered plan, not the gold SQL (which it carries beside).
func TestReportJSON(t *testing.T) {
	r, err := Run(context.Background(), Options{Suite: SuiteSpider, File: "testdata/spider_slice.json", DBRoot: testRoot(t), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"total", "counts", "compared", "execution_accuracy", "accuracy_with_ties", "cases", "timings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report JSON lacks %q", k)
		}
	}
	c := m["cases"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "db_id", "question", "gold_sql", "status", "match", "plan", "sql"} {
		if _, ok := c[k]; !ok {
			t.Errorf("case JSON lacks %q", k)
		}
	}
	if r.Total != 3 {
		t.Errorf("Limit 3 ran %d", r.Total)
	}
	if strings.Contains(r.Cases[0].SQL, "count(*) FROM singer") {
		t.Errorf("the case holds the gold SQL: %s", r.Cases[0].SQL)
	}
}

// TestRunOptions checks the option errors.
func TestRunOptions(t *testing.T) {
	root := testRoot(t)
	for _, o := range []Options{
		{Suite: "wikisql", File: "testdata/spider_slice.json", DBRoot: root},
		{File: "testdata/spider_slice.json", DBRoot: root, Engine: "oracle"},
		{File: "testdata/spider_slice.json", DBRoot: root, Planner: "gpt"},
		{File: "testdata/missing.json", DBRoot: root},
		{File: "testdata/spider_slice.json", DBRoot: filepath.Join(root, "nope")},
		{File: "testdata/spider_slice.json", DBRoot: root, Engine: EnginePostgres},
	} {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("Run(%+v) succeeded", o)
		}
	}
	// a database missing from the root makes its cases errors, not the run
	r, err := Run(context.Background(), Options{Suite: SuiteBird, File: "testdata/bird_slice.json", DBRoot: t.TempDir(), Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts.Error != 2 || !strings.HasPrefix(r.Cases[0].Reason, "database: ") {
		t.Errorf("missing database: %+v %q", r.Counts, r.Cases[0].Reason)
	}
}
