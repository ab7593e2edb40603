package postgres

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A capped PostgreSQL query must not make the server read the rows it will
// not return: without a limit inside the statement the server scans and
// sends until the socket fills (and sorts a whole input before the first
// row), all for rows the caller never sees. The table's sequential-scan
// counter says how many rows the server read.
func TestPostgresCapStopsTheServer(t *testing.T) {
	f := sourcetest.NewPGFixture(t,
		"CREATE TABLE t (i integer, s text)",
		"INSERT INTO t SELECT i, repeat('x', 100) FROM generate_series(1, 200000) i")
	scanned := func() int64 {
		n, _ := strconv.ParseInt(sourcetest.PGQueryString(t, f.Super, "SELECT coalesce(seq_tup_read, 0)::text FROM pg_stat_user_tables WHERE relname = 't'"), 10, 64)
		return n
	}
	before := scanned()
	p := openPGTest(t, f.ReadOnly, source.Options{RowLimit: 1000})
	for _, q := range []string{"SELECT * FROM t", "SELECT * FROM t; -- all of it"} {
		res, err := p.Query(context.Background(), q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 10 || !res.Truncated {
			t.Fatalf("%s: %d rows, truncated %v", q, len(res.Rows), res.Truncated)
		}
	}
	p.Close()
	// a backend's counters reach the statistics when it goes idle or exits
	var read int64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		gone := sourcetest.PGQueryString(t, f.Super, "SELECT (count(*) = 0)::text FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nl2sql'")
		if read = scanned() - before; gone == "true" && read > 0 {
			break
		}
	}
	if read == 0 || read > 2*11 {
		t.Errorf("the server read %d rows of t for two queries capped at 10 (want 11 each)", read)
	}
}

// The cap must not change what a PostgreSQL statement returns: its order,
// its column names (duplicates and unnamed ones included), its parameters,
// and texts that are not one plain SELECT, which run as written.
func TestPostgresCapKeepsTheResult(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t AS SELECT i::bigint AS i, (i * 7919) % 1000 AS k FROM generate_series(0, 99999) i")
	p := openPGTest(t, f.ReadOnly, source.Options{RowLimit: 1000})
	ctx := context.Background()
	sourcetest.RunCapCases(t, p.Query, []sourcetest.CapCase{
		{Name: "order kept", SQL: "SELECT k, i FROM t ORDER BY k DESC, i", Cols: []string{"k", "i"},
			Rows: [][]any{{int64(999), int64(321)}, {int64(999), int64(1321)}, {int64(999), int64(2321)}}, Truncated: true},
		{Name: "duplicate names", SQL: "SELECT 1 AS a, 2 AS a", Cols: []string{"a", "a"}, Rows: [][]any{{int64(1), int64(2)}}},
		{Name: "unnamed", SQL: "SELECT 1, 'x'", Cols: []string{"?column?", "?column?"}, Rows: [][]any{{int64(1), "x"}}},
		{Name: "values", SQL: "VALUES (1), (2)", Cols: []string{"column1"}, Rows: [][]any{{int64(1)}, {int64(2)}}},
		{Name: "parameters", SQL: "SELECT i FROM t WHERE i >= $1 ORDER BY i", Args: []any{int64(99998)}, Cols: []string{"i"}, Rows: [][]any{{int64(99998)}, {int64(99999)}}},
		{Name: "leading semicolons and comments", SQL: ";; /* c */ SELECT i FROM t WHERE i < 2 ORDER BY i; -- end", Cols: []string{"i"}, Rows: [][]any{{int64(0)}, {int64(1)}}},
		{Name: "set operation", SQL: "SELECT 2 AS x UNION ALL SELECT 1 ORDER BY x", Cols: []string{"x"}, Rows: [][]any{{int64(1)}, {int64(2)}}},
		{Name: "with", SQL: "WITH w AS (SELECT i FROM t WHERE i < 5) SELECT i FROM w ORDER BY i DESC", Cols: []string{"i"},
			Rows: [][]any{{int64(4)}, {int64(3)}, {int64(2)}}, Truncated: true},
	})
	// SELECT … INTO creates a table, FOR SHARE locks rows and a WITH may
	// delete: they run as written and are refused as writes, not wrapped
	// into syntax errors
	for _, q := range []string{"SELECT i INTO copy_of_t FROM t", "SELECT i FROM t FOR SHARE", "WITH d AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM d"} {
		if _, err := p.Query(ctx, q, nil, 3); err == nil || err.(*source.Error).Code != source.CodeReadOnly {
			t.Errorf("%s: %v", q, err)
		}
	}
}
