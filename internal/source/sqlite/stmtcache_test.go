package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Statements are kept per connection between runs. The threats: a kept
// statement answering with the last run's parameters, with the columns the
// table had when it was first prepared, or a second query of the same text
// resetting rows still being read.

// A verified query run again with other parameters answers for those.
func TestKeptStatementsBindEachRunsParameters(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2), (3), (4)")
	s := openTest(t, path, source.Options{Timeout: 5 * time.Second})
	for i := range 3 * source.QueryConns {
		min := int64(i%4 + 1)
		res, err := s.Query(context.Background(), `SELECT count(*), min(a) FROM "main"."t" WHERE a >= ?`, []any{min}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Rows); got != fmt.Sprintf("[[%d %d]]", 5-min, min) {
			t.Fatalf("run %d with a >= %d: %s", i, min, got)
		}
	}
}

// A table changed by another process after a query ran is read as it is
// now by the same query text: new columns appear, and a dropped one is the
// schema-changed error.
func TestKeptStatementsFollowSchemaChanges(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER, b INTEGER)", "INSERT INTO t VALUES (1, 2)")
	s := openTest(t, path, source.Options{Timeout: 5 * time.Second})
	all, onlyB := `SELECT * FROM "main"."t"`, `SELECT "b" FROM "main"."t"`
	run := func(q string) (*source.Result, error) {
		var res *source.Result
		var err error
		for range 2 * source.QueryConns { // reach every connection of the pool
			if res, err = s.Query(context.Background(), q, nil, 10); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	for _, q := range []string{all, onlyB} {
		if _, err := run(q); err != nil {
			t.Fatal(err)
		}
	}
	sourcetest.ExecWritable(t, path, "ALTER TABLE t ADD COLUMN c TEXT DEFAULT 'x'")
	res, err := run(all)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Columns, ","); got != "a,b,c" || fmt.Sprint(res.Rows) != "[[1 2 x]]" {
		t.Errorf("after adding c: columns %s rows %v", got, res.Rows)
	}
	sourcetest.ExecWritable(t, path, "ALTER TABLE t DROP COLUMN b")
	_, err = s.Query(context.Background(), onlyB, nil, 10)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeQueryFailed || se.Hint != source.SchemaChangedHint {
		t.Errorf("after dropping b: %v (hint %q), want the schema-changed hint", se, se.Hint)
	}
}

// A query of the same text while the rows of the first are open on the same
// connection gets a statement of its own; the first reads on to its end.
func TestSameQueryWhileItsRowsAreOpen(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2), (3)")
	p := openSQLitePool(sqliteDSN(path), sqlitePolicy{}, time.Second, 1)
	defer p.db.Close()
	ctx := context.Background()
	conn, err := p.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := `SELECT a FROM "main"."t" WHERE a >= ? ORDER BY a`
	read := func(n int, args ...any) []int64 {
		rows, err := conn.QueryContext(ctx, q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
			if len(out) == n {
				break
			}
		}
		return out
	}
	read(3, 1) // kept
	first, err := conn.QueryContext(ctx, q, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close() // before the connection's, which waits for open rows
	var got []int64
	for first.Next() {
		var v int64
		if err := first.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
		if len(got) == 1 {
			if inner := read(3, 2); fmt.Sprint(inner) != "[2 3]" {
				t.Errorf("inner query: %v", inner)
			}
		}
	}
	if err := first.Err(); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("outer query read %v, want [1 2 3]", got)
	}
	if again := read(3, 3); fmt.Sprint(again) != "[3]" {
		t.Errorf("after both: %v", again)
	}
}

// Closing a datasource leaves no descriptor open on its file, however many
// statements its connections kept or dropped (a statement left prepared
// keeps SQLite from closing the file: every reload would leak one).
func TestClosedDatasourceReleasesItsFile(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc/self/fd")
	}
	path := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1)")
	s, err := OpenSQLite(context.Background(), "t", path, source.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for i := range stmtCacheSize + 10 {
		if _, err := s.Query(context.Background(), fmt.Sprintf(`SELECT a + %d FROM "main"."t"`, i), nil, 10); err != nil {
			t.Fatal(err)
		}
	}
	if openOn(t, path) == 0 {
		t.Fatal("no descriptor on the file while open: the check sees nothing")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := openOn(t, path); n != 0 {
		t.Errorf("%d descriptors still open on the file after Close", n)
	}
}

// openOn counts this process's file descriptors open on path.
func openOn(t *testing.T, path string) int {
	t.Helper()
	want, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && target == want {
			n++
		}
	}
	return n
}
