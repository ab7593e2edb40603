package sourcetest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
	"github.com/nl2sql/nl2sql/internal/source/sqlitecopy"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// The measurements run only on request, each datasource in its own process
// so that its peak resident memory (VmHWM) is its own:
//
//	NL2SQL_MEASURE=1 go test ./internal/source -run TestMeasure -v
//
// (with NL2SQL_TEST_PG_DSN set for the PostgreSQL rows).

// measureCase is one datasource to measure in a child process.
type measureCase struct {
	Name, Engine, Target string // Target: a path, or a DSN
}

// measurement is what a child reports.
type measurement struct {
	Name         string  `json:"name"`
	Tables       int     `json:"tables"`
	Columns      int     `json:"columns"`
	Rows         int64   `json:"rows"`
	OpenMS       float64 `json:"open_ms"`
	SnapshotMS   float64 `json:"snapshot_ms"`
	ProfileMS    float64 `json:"profile_ms"`
	ReprofileMS  float64 `json:"reprofile_ms"` // Snapshot and Profile again, data unchanged
	SameProfile  bool    `json:"same_profile"`
	PeakRSSMiB   float64 `json:"peak_rss_mib"` // VmHWM of the child process
	GoHeapMiB    float64 `json:"go_heap_sys_mib"`
	Err          string  `json:"err,omitempty"`
	BaselineOnly bool    `json:"baseline_only,omitempty"`
}

func TestMeasure(t *testing.T) {
	if os.Getenv("NL2SQL_MEASURE") == "" {
		t.Skip("set NL2SQL_MEASURE=1 to measure introspection and profiling")
	}
	ctx := context.Background()
	chinook := SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite")
	sakila := SharedPath(t, "data/sakila/sakila.sqlite")
	cases := []measureCase{{"baseline (no datasource)", "none", ""}, {"chinook sqlite", "sqlite", chinook}, {"sakila sqlite", "sqlite", sakila}}
	dir := t.TempDir()
	for _, db := range []struct{ name, path string }{{"chinook", chinook}, {"sakila", sakila}} {
		dst := filepath.Join(dir, db.name+".duckdb")
		start := time.Now()
		if err := sqlitecopy.CopySQLiteToDuckDB(ctx, db.path, dst); err != nil {
			t.Fatal(err)
		}
		t.Logf("copy %s to duckdb: %s", db.name, time.Since(start).Round(time.Millisecond))
		cases = append(cases, measureCase{db.name + " duckdb", "duckdb", dst})
	}
	if os.Getenv("NL2SQL_TEST_PG_DSN") != "" {
		for _, db := range []struct{ name, path string }{{"chinook", chinook}, {"sakila", sakila}} {
			f := NewPGFixture(t) // a database each
			start := time.Now()
			if err := sqlitecopy.CopySQLiteToPostgres(ctx, db.path, f.Super, "public"); err != nil {
				t.Fatal(err)
			}
			t.Logf("copy %s to postgres: %s", db.name, time.Since(start).Round(time.Millisecond))
			PGExec(t, f.Super, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+f.Role)
			cases = append(cases, measureCase{db.name + " postgres", "postgres", f.ReadOnly})
		}
	}
	spider, _ := filepath.Glob(filepath.Join(SharedPath(t, "eval/spider/database"), "*", "*.sqlite"))
	for _, p := range spider {
		cases = append(cases, measureCase{"spider " + filepath.Base(filepath.Dir(p)), "sqlite", p})
	}

	t.Logf("%-34s %6s %7s %8s %8s %9s %10s %12s %9s %9s", "datasource", "tables", "columns", "rows", "open ms", "snap ms", "profile ms", "reprofile ms", "peak MiB", "heap MiB")
	for _, c := range cases {
		m, err := runMeasureChild(c)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if m.Err != "" {
			t.Errorf("%s: %s", c.Name, m.Err)
			continue
		}
		t.Logf("%-34s %6d %7d %8d %8.1f %9.1f %10.1f %12.1f %9.1f %9.1f", c.Name, m.Tables, m.Columns, m.Rows, m.OpenMS, m.SnapshotMS, m.ProfileMS, m.ReprofileMS, m.PeakRSSMiB, m.GoHeapMiB)
		if !m.BaselineOnly && !m.SameProfile {
			t.Errorf("%s: the second profile differs from the first", c.Name)
		}
	}
}

// runMeasureChild measures c in a child process running TestMeasureChild.
func runMeasureChild(c measureCase) (*measurement, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMeasureChild$", "-test.v")
	b, _ := json.Marshal(c)
	cmd.Env = append(os.Environ(), "NL2SQL_MEASURE_CHILD="+string(b))
	out, err := cmd.CombinedOutput()
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "MEASURE "); ok {
			var m measurement
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				return nil, err
			}
			return &m, nil
		}
	}
	return nil, fmt.Errorf("no measurement (%v):\n%s", err, out)
}

// TestMeasureChild is the child side of TestMeasure.
func TestMeasureChild(t *testing.T) {
	spec := os.Getenv("NL2SQL_MEASURE_CHILD")
	if spec == "" {
		t.Skip("run by TestMeasure")
	}
	var c measureCase
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		t.Fatal(err)
	}
	m := measure(c)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.GoHeapMiB = float64(ms.HeapSys) / (1 << 20)
	m.PeakRSSMiB = vmHWM() / 1024
	b, _ := json.Marshal(m)
	fmt.Println("MEASURE " + string(b))
}

// measure opens c, snapshots and profiles it twice.
func measure(c measureCase) measurement {
	ctx := context.Background()
	m := measurement{Name: c.Name}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	start := time.Now()
	var src DataSource
	var err error
	var profile func(ctx context.Context, snap *schema.Snapshot) error
	switch c.Engine {
	case "none":
		m.BaselineOnly = true
		return m
	case "sqlite":
		s, e := sqlite.OpenSQLite(ctx, "m", c.Target, source.Options{})
		src, err, profile = s, e, func(ctx context.Context, snap *schema.Snapshot) error { return s.Profile(ctx, snap) }
	case "duckdb":
		d, e := duckdb.OpenDuckDB(ctx, "m", c.Target, source.Options{})
		src, err, profile = d, e, func(ctx context.Context, snap *schema.Snapshot) error { return d.Profile(ctx, snap) }
	case "postgres":
		p, e := postgres.OpenPostgres(ctx, "m", c.Target, source.Options{})
		src, err, profile = p, e, func(ctx context.Context, snap *schema.Snapshot) error { return p.Profile(ctx, snap) }
	}
	if err != nil {
		m.Err = err.Error()
		return m
	}
	defer src.Close()
	m.OpenMS = ms(time.Since(start))
	start = time.Now()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	m.SnapshotMS = ms(time.Since(start))
	start = time.Now()
	if err := profile(ctx, snap); err != nil {
		m.Err = err.Error()
		return m
	}
	m.ProfileMS = ms(time.Since(start))
	for _, tb := range snap.Tables {
		m.Tables++
		m.Columns += len(tb.Columns)
		if tb.RowCount != nil {
			m.Rows += *tb.RowCount
		}
	}
	start = time.Now()
	again, err := src.Snapshot(ctx)
	if err == nil {
		err = profile(ctx, again)
	}
	if err != nil {
		m.Err = err.Error()
		return m
	}
	m.ReprofileMS = ms(time.Since(start))
	m.SameProfile = again.Fingerprint() == snap.Fingerprint()
	return m
}

// vmHWM is the process's peak resident set size in KiB, from
// /proc/self/status (0 where there is none).
func vmHWM() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return kb
		}
	}
	return 0
}
