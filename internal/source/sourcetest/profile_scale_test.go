package sourcetest

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// Past ProfileSampleRows rows, distinct counts and values come from the
// first rows and the profile says so; counts, NULL shares and ranges stay
// exact, and a unique column stays unique. The same on DuckDB.
func TestProfileSampledPastTheRowBound(t *testing.T) {
	old := source.ProfileSampleRows
	source.ProfileSampleRows = 20
	defer func() { source.ProfileSampleRows = old }()
	lite := Open(t, sqlite.OpenSQLite, TempDB(t, ProfileFixture...), source.Options{})
	duckPath := DuckTempDB(t, "CREATE TABLE f (id INTEGER, code VARCHAR, amount INTEGER, maybe INTEGER)",
		"INSERT INTO f SELECT i, chr(CAST(97 + (i - 1) // 25 AS INTEGER)), i * 10, CASE WHEN i % 2 = 0 THEN i END FROM range(1, 101) t(i)")
	duck := Open(t, duckdb.OpenDuckDB, duckPath, source.Options{})
	for _, src := range []Profiler{lite, duck} {
		snap := Profiled(t, src)
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
			if got := ProfileJSON(t, snap, "f", col); got != w {
				t.Errorf("%T %s: %s\nwant %s", src, col, got, w)
			}
		}
	}
}
