package sourcetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// A capped query must not make the engine produce the rows it will not
// return: a user's 200M-row SELECT would otherwise hold the whole result in
// memory (DuckDB's driver materialises it) and run into the timeout. Each
// statement here fails when the engine evaluates its millionth row, so it
// succeeds only when the engine stops near the cap.
func TestQueryStopsAtCap(t *testing.T) {
	ctx := context.Background()
	t.Run("duckdb", func(t *testing.T) {
		d := Open(t, duckdb.OpenDuckDB, DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{RowLimit: 1000})
		for _, q := range []string{
			"SELECT CASE WHEN i >= 1000000 THEN error('produced row ' || i) ELSE i END AS i FROM range(100000000) t(i)",
			"SELECT CASE WHEN i >= 1000000 THEN error('produced row ' || i) ELSE i END AS i FROM range(100000000) t(i); -- done",
			"WITH r AS (SELECT * FROM range(100000000) t(i)) SELECT CASE WHEN i >= 1000000 THEN error('produced row ' || i) ELSE i END AS i FROM r -- trailing comment",
		} {
			res, err := d.Query(ctx, q, nil, 10)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if len(res.Rows) != 10 || !res.Truncated || res.Rows[9][0] != int64(9) {
				t.Errorf("%s: %d rows, truncated %v, %v", q, len(res.Rows), res.Truncated, res.Rows)
			}
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		s := Open(t, sqlite.OpenSQLite, TempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{RowLimit: 1000})
		// abs(-9223372036854775808) raises "integer overflow"
		q := `WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 100000000)
			SELECT CASE WHEN i >= 1000000 THEN abs(-9223372036854775807 - 1) ELSE i END AS i FROM r`
		res, err := s.Query(ctx, q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 10 || !res.Truncated {
			t.Errorf("%d rows, truncated %v", len(res.Rows), res.Truncated)
		}
	})
}

// The cap must not change what a DuckDB statement returns: its order, its
// column names (DuckDB renames duplicates inside a subquery), its
// parameters, and texts that are not one plain SELECT.
func TestDuckDBCapKeepsTheResult(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.duckdb")
	DuckExec(t, p, "CREATE TABLE t AS SELECT i, (i * 7919) % 1000 AS k FROM range(100000) t(i)")
	d := Open(t, duckdb.OpenDuckDB, p, source.Options{RowLimit: 1000})
	RunCapCases(t, d.Query, []CapCase{
		{"order kept", "SELECT k, i FROM t ORDER BY k DESC, i", nil, []string{"k", "i"},
			[][]any{{int64(999), int64(321)}, {int64(999), int64(1321)}, {int64(999), int64(2321)}}, true},
		{"duplicate names", "SELECT 1 AS a, 2 AS a", nil, []string{"a", "a"}, [][]any{{int64(1), int64(2)}}, false},
		{"unnamed", "SELECT 1, 2", nil, []string{"1", "2"}, [][]any{{int64(1), int64(2)}}, false},
		{"values", "VALUES (1), (2)", nil, []string{"col0"}, [][]any{{int64(1)}, {int64(2)}}, false},
		{"parameters", "SELECT i FROM t WHERE i >= ? ORDER BY i", []any{int64(99998)}, []string{"i"}, [][]any{{int64(99998)}, {int64(99999)}}, false},
		{"leading semicolons and comments", ";; /* c */ SELECT i FROM t WHERE i < 2 ORDER BY i; -- end", nil, []string{"i"}, [][]any{{int64(0)}, {int64(1)}}, false},
		{"set operation", "SELECT 2 AS x UNION ALL SELECT 1 ORDER BY x", nil, []string{"x"}, [][]any{{int64(1)}, {int64(2)}}, false},
	})
}
