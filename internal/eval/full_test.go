package eval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// sharedDir returns the project's shared/ directory (beside the repository
// root), skipping the test when it is absent, failing when CI is set.
func sharedDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := filepath.Join(root, "..", "shared")
	if fi, err := os.Stat(filepath.Join(dir, "eval")); err != nil || !fi.IsDir() {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared/eval is missing at %s (CI is set)", dir)
		}
		t.Skipf("shared/eval is missing at %s", dir)
	}
	return dir
}

// TestFullBenchmarks runs the oracle planner over the whole Spider dev set
// and BIRD mini-dev, on SQLite and on the engines this build can copy to.
// It is the full benchmark measurement, gated so CI does not run it:
//
//	NL2SQL_EVAL_FULL=1 go test ./internal/eval -run TestFullBenchmarks -v -timeout 30m
//
// NL2SQL_EVAL_ENGINES (default "sqlite") lists engines, comma-separated;
// NL2SQL_TEST_PG_DSN is the PostgreSQL server for "postgres";
// NL2SQL_EVAL_OUT, when set, is a directory for the JSON reports.
func TestFullBenchmarks(t *testing.T) {
	if os.Getenv("NL2SQL_EVAL_FULL") != "1" {
		t.Skip("set NL2SQL_EVAL_FULL=1 to run the full benchmarks")
	}
	shared := sharedDir(t)
	engines := splitList(os.Getenv("NL2SQL_EVAL_ENGINES"), EngineSQLite)
	suites := []struct {
		suite, file, root string
		target            map[string]float64
	}{
		{SuiteSpider, "eval/spider/dev.json", "eval/spider/database", map[string]float64{EngineSQLite: 0.97, EngineDuckDB: 0.95, EnginePostgres: 0.95}},
		{SuiteBird, "eval/bird-minidev/mini_dev_sqlite.json", "eval/bird-minidev/database", map[string]float64{EngineSQLite: 0.95, EngineDuckDB: 0.95, EnginePostgres: 0.95}},
	}
	for _, s := range suites {
		for _, e := range engines {
			t.Run(s.suite+"/"+e, func(t *testing.T) {
				r, err := Run(context.Background(), Options{
					Suite: s.suite, File: filepath.Join(shared, s.file), DBRoot: filepath.Join(shared, s.root),
					Engine: e, PGDSN: os.Getenv("NL2SQL_TEST_PG_DSN"),
				})
				if err != nil {
					t.Fatal(err)
				}
				t.Log("\n" + r.Summary())
				if out := os.Getenv("NL2SQL_EVAL_OUT"); out != "" {
					b, _ := json.MarshalIndent(r, "", "  ")
					if err := os.WriteFile(filepath.Join(out, s.suite+"-"+e+".json"), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if r.ExecutionAccuracy == nil || *r.ExecutionAccuracy < s.target[e] {
					t.Errorf("%s on %s: execution accuracy %v, target %.2f", s.suite, e, r.ExecutionAccuracy, s.target[e])
				}
			})
		}
	}
}

func splitList(s, def string) []string {
	if s == "" {
		return []string{def}
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
