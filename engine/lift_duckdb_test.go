package engine

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/planast/lift"
)

// The threat: SQL written for a DuckDB datasource lifted as PostgreSQL's
// means something else: DuckDB's 7 / 2 is 3.5 where PostgreSQL's is 3, and
// DuckDB sorts NULLs last in a descending order where PostgreSQL sorts
// them first. A user who lifts a working DuckDB query gets a plan that
// answers another question. Every lifted plan, run on the DuckDB file,
// must return what the SQL itself returns there.
func TestLiftedDuckDBSQLMeansWhatDuckDBDoes(t *testing.T) {
	stmts := []string{
		"CREATE TABLE t (id INTEGER, a INTEGER, b INTEGER, x DOUBLE)",
		"INSERT INTO t VALUES (1, 7, 2, 1.5), (2, 9, 4, NULL), (3, -7, 2, 3.25), (4, 1, 3, NULL), (5, 10, 5, 0.5)",
	}
	db := sourcetest.DuckTempDB(t, stmts...)
	// the SQL runs on a copy: one process opens a DuckDB file once
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.duckdb")
	if err := os.WriteFile(cp, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	direct, err := sql.Open("duckdb", cp+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "duckdb", Path: db, RowLimit: 1000})
	ctx := context.Background()
	snap, err := e.VisibleSnapshot(ctx, "air")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT id, a / b AS q FROM t ORDER BY id",
		"SELECT id, a // b AS q FROM t ORDER BY id",
		"SELECT id FROM t ORDER BY x DESC, id",
		"SELECT id FROM t ORDER BY x, id",
		"SELECT id, SUM(a) OVER (ORDER BY x DESC, id) AS run FROM t ORDER BY id",
	} {
		plan, err := lift.Lift(q, lift.DialectDuckDB, snap)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		res, err := e.RunPlan(ctx, "air", plan.Canonical())
		if err != nil {
			t.Fatalf("%s: the lifted plan: %v", q, err)
		}
		var got, want []string
		for _, r := range res.Rows {
			got = append(got, cells(r))
		}
		rows, err := direct.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			r := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range r {
				ptrs[i] = &r[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			want = append(want, cells(r))
		}
		rows.Close()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s\n lifted plan %s\n gives %v\n DuckDB  %v", q, plan.Canonical(), got, want)
		}
	}
}

// cells prints a row with every number as a float, so an integer and a
// float of one value print alike.
func cells(r []any) string {
	out := ""
	for _, v := range r {
		var f float64
		if _, err := fmt.Sscan(fmt.Sprint(v), &f); err == nil && v != nil {
			out += fmt.Sprintf("%g ", f)
		} else {
			out += fmt.Sprintf("%v ", v)
		}
	}
	return out
}
