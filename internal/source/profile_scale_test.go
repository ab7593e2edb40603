package source

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// profileFixture is 100 rows: a unique id, a code of 4 values stored in
// runs (the first 10 rows all 'a'), a number that grows with id, and a
// column NULL every other row.
var profileFixture = []string{
	"CREATE TABLE f (id INTEGER PRIMARY KEY, code TEXT, amount INTEGER, maybe INTEGER)",
	`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100)
	 INSERT INTO f SELECT i, char(97 + (i - 1) / 25), i * 10, CASE WHEN i % 2 = 0 THEN i END FROM r`,
}

// Profiling a big table must not scan it once or twice per column (176 s on
// 10M rows): SQLite reads every row in one statement, then only the
// bounded sample, one statement for the distinct counts and one per
// column for its values.
func TestSQLiteProfileScansOnce(t *testing.T) {
	s := openTest(t, tempDB(t, profileFixture...), Options{})
	snap, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var stmts []string
	profileStatement = func(q string) { mu.Lock(); stmts = append(stmts, q); mu.Unlock() }
	defer func() { profileStatement = nil }()
	if err := s.Profile(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, q := range stmts {
		if !strings.Contains(q, "LIMIT") && !strings.Contains(q, "GROUP BY") && !strings.Contains(q, "DISTINCT") {
			full++
		}
	}
	// 1 full scan, 1 distinct statement, 4 columns' values
	if full != 1 || len(stmts) != 6 {
		t.Errorf("%d statements, %d full scans without a sample:\n%s", len(stmts), full, strings.Join(stmts, "\n"))
	}
}

// Past profileSampleRows rows, distinct counts and values come from the
// first rows and the profile says so; counts, NULL shares and ranges stay
// exact, and a unique column stays unique. The same on DuckDB.
func TestProfileSampledPastTheRowBound(t *testing.T) {
	old := profileSampleRows
	profileSampleRows = 20
	defer func() { profileSampleRows = old }()
	ctx := context.Background()
	lite := openTest(t, tempDB(t, profileFixture...), Options{})
	duckPath := duckTempDB(t, "CREATE TABLE f (id INTEGER, code VARCHAR, amount INTEGER, maybe INTEGER)",
		"INSERT INTO f SELECT i, chr(CAST(97 + (i - 1) // 25 AS INTEGER)), i * 10, CASE WHEN i % 2 = 0 THEN i END FROM range(1, 101) t(i)")
	duck := openDuckTest(t, duckPath, Options{})
	for _, src := range []interface {
		Snapshot(context.Context) (*schema.Snapshot, error)
		Profile(context.Context, *schema.Snapshot) error
	}{lite, duck} {
		snap, err := src.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := src.Profile(ctx, snap); err != nil {
			t.Fatal(err)
		}
		tb, _ := snap.Lookup("", "f")
		if tb.RowCount == nil || *tb.RowCount != 100 {
			t.Fatalf("%T: row count %v", src, tb.RowCount)
		}
		want := map[string]string{
			"id":     `{"distinct_count":100,"null_fraction":0,"min":1,"max":100,"sample_values":[1,2,3,4,5],"sampled_rows":20}`,
			"code":   `{"distinct_count":1,"null_fraction":0,"sample_values":["a"],"sampled_rows":20}`,
			"amount": `{"distinct_count":100,"null_fraction":0,"min":10,"max":1000,"sample_values":[10,20,30,40,50],"sampled_rows":20}`,
			"maybe":  `{"distinct_count":50,"null_fraction":0.5,"min":2,"max":100,"sample_values":[2,4,6,8,10],"sampled_rows":20}`,
		}
		for col, w := range want {
			if got := profileJSON(t, snap, "f", col); got != w {
				t.Errorf("%T %s: %s\nwant %s", src, col, got, w)
			}
		}
	}
}
