package source

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// A capped PostgreSQL query must not make the server read the rows it will
// not return: without a limit inside the statement the server scans and
// sends until the socket fills (and sorts a whole input before the first
// row), all for rows the caller never sees. The table's sequential-scan
// counter says how many rows the server read.
func TestPostgresCapStopsTheServer(t *testing.T) {
	f := newPGFixture(t,
		"CREATE TABLE t (i integer, s text)",
		"INSERT INTO t SELECT i, repeat('x', 100) FROM generate_series(1, 200000) i")
	scanned := func() int64 {
		n, _ := strconv.ParseInt(pgQueryString(t, f.Super, "SELECT coalesce(seq_tup_read, 0)::text FROM pg_stat_user_tables WHERE relname = 't'"), 10, 64)
		return n
	}
	before := scanned()
	p := openPGTest(t, f.ReadOnly, Options{RowLimit: 1000})
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
		gone := pgQueryString(t, f.Super, "SELECT (count(*) = 0)::text FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nl2sql'")
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
	f := newPGFixture(t, "CREATE TABLE t AS SELECT i::bigint AS i, (i * 7919) % 1000 AS k FROM generate_series(0, 99999) i")
	p := openPGTest(t, f.ReadOnly, Options{RowLimit: 1000})
	ctx := context.Background()
	runCapCases(t, p.Query, []capCase{
		{"order kept", "SELECT k, i FROM t ORDER BY k DESC, i", nil, []string{"k", "i"},
			[][]any{{int64(999), int64(321)}, {int64(999), int64(1321)}, {int64(999), int64(2321)}}, true},
		{"duplicate names", "SELECT 1 AS a, 2 AS a", nil, []string{"a", "a"}, [][]any{{int64(1), int64(2)}}, false},
		{"unnamed", "SELECT 1, 'x'", nil, []string{"?column?", "?column?"}, [][]any{{int64(1), "x"}}, false},
		{"values", "VALUES (1), (2)", nil, []string{"column1"}, [][]any{{int64(1)}, {int64(2)}}, false},
		{"parameters", "SELECT i FROM t WHERE i >= $1 ORDER BY i", []any{int64(99998)}, []string{"i"}, [][]any{{int64(99998)}, {int64(99999)}}, false},
		{"leading semicolons and comments", ";; /* c */ SELECT i FROM t WHERE i < 2 ORDER BY i; -- end", nil, []string{"i"}, [][]any{{int64(0)}, {int64(1)}}, false},
		{"set operation", "SELECT 2 AS x UNION ALL SELECT 1 ORDER BY x", nil, []string{"x"}, [][]any{{int64(1)}, {int64(2)}}, false},
		{"with", "WITH w AS (SELECT i FROM t WHERE i < 5) SELECT i FROM w ORDER BY i DESC", nil, []string{"i"},
			[][]any{{int64(4)}, {int64(3)}, {int64(2)}}, true},
	})
	// SELECT … INTO creates a table, FOR SHARE locks rows and a WITH may
	// delete: they run as written and are refused as writes, not wrapped
	// into syntax errors
	for _, q := range []string{"SELECT i INTO copy_of_t FROM t", "SELECT i FROM t FOR SHARE", "WITH d AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM d"} {
		if _, err := p.Query(ctx, q, nil, 3); err == nil || err.(*Error).Code != CodeReadOnly {
			t.Errorf("%s: %v", q, err)
		}
	}
}
