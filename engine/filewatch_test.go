package engine

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a nightly job writes shop_new.db and moves it over shop.db
// (or removes the file and writes it anew) while the server runs. The
// open connections keep reading the old, unlinked file: the server went
// on answering 400 orders where the file on disk held 100, said the
// datasource was ready, and refused the new file's tables as unknown,
// until a restart nobody told the user about.
func TestDatabaseFileReplacedOnDiskIsOpenedAgain(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = 0
	for _, eng := range []string{"sqlite", "duckdb"} {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "shop."+eng)
			writeOrders(t, eng, path, 400)
			e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
				Datasources: []DatasourceSpec{{ID: "shop", Engine: eng, Path: path}}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			if n := countOrders(t, e); n != 400 {
				t.Fatalf("orders %d, want 400", n)
			}

			// mv new.db shop.db
			next := filepath.Join(dir, "next."+eng)
			writeOrders(t, eng, next, 100)
			if err := os.Rename(next, path); err != nil {
				t.Fatal(err)
			}
			if n := countOrders(t, e); n != 100 {
				t.Fatalf("after the file was replaced: orders %d, want the new file's 100", n)
			}

			// rm shop.db: no answer from a file nobody can see
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			_, err = e.RunPlan(context.Background(), "shop", ordersCount)
			var ee *Error
			if !errors.As(err, &ee) || ee.Code != "DATASOURCE_UNAVAILABLE" || ee.Hint == "" {
				t.Fatalf("after the file was removed: %v, want DATASOURCE_UNAVAILABLE with a hint", err)
			}

			// and a file written there again is answered from
			writeOrders(t, eng, path, 7)
			if n := countOrders(t, e); n != 7 {
				t.Fatalf("after the file came back: orders %d, want 7", n)
			}
		})
	}
}

// The same rename, a moment after a call, with the periodic check far
// off: the user who just replaced the file asks at once and must get the
// new file's numbers, not the old ones for another couple of seconds.
func TestReplacedFileAnsweredFromTheNewFileOnTheNextCall(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = time.Hour // only the per-call check can see it
	for _, c := range []struct {
		eng      string
		old, cur int
	}{
		{"sqlite", 400, 100},
		{"duckdb", 400, 100},
	} {
		t.Run(c.eng, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "shop."+c.eng)
			writeOrders(t, c.eng, path, c.old)
			next := filepath.Join(dir, "next."+c.eng)
			writeOrders(t, c.eng, next, c.cur)
			e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
				Datasources: []DatasourceSpec{{ID: "shop", Engine: c.eng, Path: path}}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			if n := countOrders(t, e); n != int64(c.old) {
				t.Fatalf("orders %d, want %d", n, c.old)
			}
			if err := os.Rename(next, path); err != nil { // mv next shop, microseconds after the call
				t.Fatal(err)
			}
			res, err := e.RunPlan(context.Background(), "shop", ordersCount)
			if err != nil {
				t.Fatalf("the call right after the rename: %v", err)
			}
			if n := res.Rows[0][0]; n != int64(c.cur) {
				t.Fatalf("the call right after the file was replaced: orders %v, want the new file's %d", n, c.cur)
			}
		})
	}
}

// The threat: a file that is no database (a failed download, a text
// export) moved over the datasource's path. Every call answered "its
// database file was replaced and is being opened again", retryable, so a
// client retried for ever while nothing was being opened. The call says
// the file now at the path cannot be opened, not retryable; a valid file
// put back is answered from at once.
func TestFileReplacedByANonDatabaseSaysSo(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = time.Hour
	for _, eng := range []string{"sqlite", "duckdb"} {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "shop."+eng)
			writeOrders(t, eng, path, 40)
			e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
				Datasources: []DatasourceSpec{{ID: "shop", Engine: eng, Path: path}}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			if n := countOrders(t, e); n != 40 {
				t.Fatalf("orders %d, want 40", n)
			}
			junk := filepath.Join(dir, "junk")
			if err := os.WriteFile(junk, []byte("garbage, not a database\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(junk, path); err != nil {
				t.Fatal(err)
			}
			for i := range 2 { // and again: never "being opened again"
				_, err = e.RunPlan(context.Background(), "shop", ordersCount)
				var fe *Error
				if !errors.As(err, &fe) || fe.Retryable || !strings.Contains(fe.Msg, "cannot be opened") && !strings.Contains(fe.Msg, "is not a") {
					t.Fatalf("call %d after the junk file: %v (%#v), want a non-retryable error saying the new file cannot be opened", i+1, err, fe)
				}
			}
			next := filepath.Join(dir, "next."+eng)
			writeOrders(t, eng, next, 7)
			if err := os.Rename(next, path); err != nil {
				t.Fatal(err)
			}
			if n := countOrders(t, e); n != 7 {
				t.Fatalf("orders %d after a valid file was put back, want 7", n)
			}
		})
	}
}

// BenchmarkSameFile is what every call pays to know its datasource's
// file is still the one at its path: one stat.
func BenchmarkSameFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "shop.sqlite")
	db, err := sql.Open("sqlite", path)
	if err == nil {
		_, err = db.Exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY)`)
		db.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	e := shopEngine(b, path)
	ctx := context.Background()
	ds, err := e.sources.Await(ctx, "shop", 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if fresh, err := e.sameFile(ctx, ds); fresh != ds || err != nil {
			b.Fatal(fresh, err)
		}
	}
}

var ordersCount = []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}]}`)

func countOrders(t *testing.T, e *Engine) int64 {
	t.Helper()
	res, err := e.RunPlan(context.Background(), "shop", ordersCount)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := res.Rows[0][0].(int64)
	if !ok {
		t.Fatalf("count %T %v", res.Rows[0][0], res.Rows[0][0])
	}
	return n
}

// writeOrders writes a database file of engine eng at path whose table
// orders holds n rows.
func writeOrders(t *testing.T, eng, path string, n int) {
	t.Helper()
	stmts := []string{`CREATE TABLE orders (id INTEGER PRIMARY KEY, total DOUBLE)`}
	stmts = append(stmts, `INSERT INTO orders SELECT i, i * 1.5 FROM (WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < `+strconv.Itoa(n)+`) SELECT i FROM s) AS s`)
	if eng == "sqlite" {
		sourcetest.ExecWritable(t, path, stmts...)
		return
	}
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}
