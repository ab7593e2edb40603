package sourcetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// TestScaleFigures measures, on demand only (NL2SQL_SCALE_BENCH=1), what a
// capped query and a profile cost on big inputs: rows returned, wall time
// and peak RSS over the baseline before the step (VmHWM after resetting it
// through /proc/self/clear_refs), and this process's CPU time. The data comes from the engines' own
// generators (views over range(), generate_series, a recursive CTE), so no
// big file is needed except the 10M-row profiling table, built in a
// temporary directory. Run:
//
//	NL2SQL_SCALE_BENCH=1 NL2SQL_TEST_PG_DSN=... go test ./internal/source -run TestScaleFigures -v -timeout 30m
func TestScaleFigures(t *testing.T) {
	if os.Getenv("NL2SQL_SCALE_BENCH") == "" {
		t.Skip("set NL2SQL_SCALE_BENCH=1 to measure (minutes, GBs of temporary disk)")
	}
	ctx := context.Background()
	measure := func(name string, f func() (string, error)) {
		runtimeGC()
		_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
		base := procKB("VmRSS")
		cpu0 := processCPU()
		start := time.Now()
		what, err := f()
		el := time.Since(start)
		cpu := processCPU() - cpu0
		peak := procKB("VmHWM")
		t.Logf("%-44s %-22s %8.2fs wall %8.2fs CPU (this process)  peak RSS +%d MB  err=%v", name, what, el.Seconds(), cpu.Seconds(), (peak-base)/1024, err)
	}
	rows := func(r *source.Result, err error) (string, error) {
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d rows truncated=%v", len(r.Rows), r.Truncated), nil
	}
	opts := source.Options{RowLimit: 1000, Timeout: 60 * time.Second}
	// run_plan renders a plan over the view as the first-rows form
	planSQL := func(from, offset string) string {
		return `SELECT * FROM (SELECT "b"."i" AS "i", "b"."s" AS "s" FROM ` + from + ` AS "b" LIMIT 1001` + offset + `) AS "first_rows" ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST`
	}
	dir := t.TempDir()

	// NL2SQL_SCALE_PROFILE_ONLY=1 measures profiling alone
	if os.Getenv("NL2SQL_SCALE_PROFILE_ONLY") == "" {
		duckPath := filepath.Join(dir, "big.duckdb")
		DuckExec(t, duckPath,
			"CREATE VIEW big AS SELECT i, CAST(i AS VARCHAR) AS s FROM range(200000000) t(i)",
			"CREATE VIEW wide AS SELECT i, repeat('x', 100) AS s FROM range(20000000) t(i)")
		d := Open(t, duckdb.OpenDuckDB, duckPath, opts)
		for _, v := range []string{"big", "wide"} {
			measure("duckdb verified SELECT * FROM "+v, func() (string, error) { return rows(d.Query(ctx, "SELECT * FROM "+v, nil, 1001)) })
			measure("duckdb run_plan over "+v, func() (string, error) { return rows(d.Query(ctx, planSQL(v, ""), nil, 1001)) })
		}

		litePath := filepath.Join(dir, "big.sqlite")
		ExecWritable(t, litePath,
			"CREATE VIEW big AS WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 199999999) SELECT i, CAST(i AS TEXT) AS s FROM r",
			"CREATE VIEW wide AS WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19999999) SELECT i, printf('%.100c', 'x') AS s FROM r")
		s := Open(t, sqlite.OpenSQLite, litePath, opts)
		for _, v := range []string{"big", "wide"} {
			measure("sqlite verified SELECT * FROM "+v, func() (string, error) { return rows(s.Query(ctx, "SELECT * FROM "+v, nil, 1001)) })
			measure("sqlite run_plan over "+v, func() (string, error) { return rows(s.Query(ctx, planSQL(v, " OFFSET 0"), nil, 1001)) })
		}

		if dsn := os.Getenv("NL2SQL_TEST_PG_DSN"); dsn != "" {
			popts := opts
			popts.AllowWritableRole = true
			p := Open(t, postgres.OpenPostgres, dsn, popts)
			for _, v := range []string{
				"(SELECT i, i::text AS s FROM (SELECT generate_series(0::bigint, 199999999) AS i) g)",
				"(SELECT i, repeat('x', 100) AS s FROM (SELECT generate_series(0::bigint, 19999999) AS i) g)",
			} {
				name := "200M"
				if strings.Contains(v, "repeat") {
					name = "20M x 100 chars"
				}
				measure("postgres verified "+name, func() (string, error) { return rows(p.Query(ctx, "SELECT * FROM "+v+" AS b", nil, 1001)) })
				measure("postgres run_plan "+name, func() (string, error) { return rows(p.Query(ctx, planSQL(v, ""), nil, 1001)) })
			}
		}
	}

	n := 10_000_000
	if e := os.Getenv("NL2SQL_SCALE_PROFILE_ROWS"); e != "" {
		n, _ = strconv.Atoi(e)
	}
	fact := fmt.Sprintf(`SELECT i AS id, i %% 1000 AS customer_id, i %% 97 AS product_id, (i * 7919) %% 100000 / 100.0 AS amount,
		date '2020-01-01' + CAST(i %% 1500 AS INTEGER) AS day, CASE i %% 4 WHEN 0 THEN 'new' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' ELSE 'done' END AS status
		FROM range(%d) t(i)`, n)
	factDuck := filepath.Join(dir, "fact.duckdb")
	DuckExec(t, factDuck, "CREATE TABLE fact AS "+fact)
	fd := Open(t, duckdb.OpenDuckDB, factDuck, opts)
	measure(fmt.Sprintf("duckdb profile %d-row fact", n), func() (string, error) {
		snap, err := fd.Snapshot(ctx)
		if err != nil {
			return "", err
		}
		return "6 columns", fd.Profile(ctx, snap)
	})
	factLite := filepath.Join(dir, "fact.sqlite")
	ExecWritable(t, factLite, "CREATE TABLE fact (id INTEGER PRIMARY KEY, customer_id INTEGER, product_id INTEGER, amount REAL, day DATE, status TEXT)",
		fmt.Sprintf(`WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < %d)
		INSERT INTO fact SELECT i, i %% 1000, i %% 97, (i * 7919) %% 100000 / 100.0, date('2020-01-01', '+' || (i %% 1500) || ' days'),
		CASE i %% 4 WHEN 0 THEN 'new' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' ELSE 'done' END FROM r`, n-1))
	fl := Open(t, sqlite.OpenSQLite, factLite, opts)
	measure(fmt.Sprintf("sqlite profile %d-row fact", n), func() (string, error) {
		snap, err := fl.Snapshot(ctx)
		if err != nil {
			return "", err
		}
		return "6 columns", fl.Profile(ctx, snap)
	})
}

// procKB reads a "Name: N kB" line of /proc/self/status.
func procKB(name string) int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, name+":") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				v, _ := strconv.ParseInt(f[1], 10, 64)
				return v
			}
		}
	}
	return 0
}

// processCPU is the user and system CPU time this process has used (for
// PostgreSQL, the server's own CPU is not in it).
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runtimeGC() { runtime.GC(); debug.FreeOSMemory() }
