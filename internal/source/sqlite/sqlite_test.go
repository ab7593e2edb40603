package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/planast"
)

func TestOpenSQLiteUnavailable(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	sourcetest.NotADatabase(t, garbage, 100)
	duck := filepath.Join(dir, "real.duckdb")
	sourcetest.DuckExec(t, duck, "CREATE TABLE t (a INTEGER)")
	tests := []struct {
		name, path, msg string
	}{
		{"missing", filepath.Join(dir, "missing.db"), "does not exist"},
		{"directory", dir, "directory"},
		{"not a database", garbage, "not an SQLite database"},
		{"a DuckDB file", duck, "is a DuckDB database, not an SQLite one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := OpenSQLite(context.Background(), "x", tt.path, source.Options{})
			if err == nil {
				s.Close()
				t.Fatal("opened")
			}
			se := sourcetest.AsError(t, err)
			if se.Code != source.CodeUnavailable || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v (%v), want %s containing %q", se, se.Err, source.CodeUnavailable, tt.msg)
			}
			if strings.Contains(se.Msg, dir) || strings.Contains(se.Hint, dir) {
				t.Errorf("message names the path: %q / %q", se.Msg, se.Hint)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing database was created: %v", err)
	}
}

func TestOpenSQLiteLocked(t *testing.T) {
	p := sourcetest.TempDB(t, "CREATE TABLE t (a)", "INSERT INTO t VALUES (1)")
	// The lock wait (50ms) ends well before the query's time limit (30s).
	s, err := openSQLite(context.Background(), "test", p, source.Options{}.WithDefaults(), 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A writer holding an exclusive lock keeps readers out.
	w := sourcetest.OpenWritableConn(t, p)
	if _, err := w.ExecContext(context.Background(), "PRAGMA locking_mode = EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(context.Background(), "INSERT INTO t VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Query(context.Background(), "SELECT * FROM t", nil, 10)
	se := sourcetest.AsError(t, err)
	if se.Code != source.CodeUnavailable {
		t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeUnavailable)
	}
}

func TestQueryChinook(t *testing.T) {
	s := openTest(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"), source.Options{})
	if s.ID() != "test" || s.Dialect() != "sqlite" {
		t.Errorf("ID, Dialect = %q, %q", s.ID(), s.Dialect())
	}
	res, err := s.Query(context.Background(),
		`SELECT InvoiceId, InvoiceDate, Total, BillingCountry, Total * 2 AS twice, upper(BillingCity) AS city
		 FROM Invoice WHERE InvoiceId <= ? ORDER BY InvoiceId`, []any{3}, 2)
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"InvoiceId", "InvoiceDate", "Total", "BillingCountry", "twice", "city"}
	wantTypes := []planast.Type{planast.TypeInteger, planast.TypeTimestamp, planast.TypeDecimal, planast.TypeText, planast.TypeFloat, planast.TypeText}
	if !reflect.DeepEqual(res.Columns, wantCols) || !reflect.DeepEqual(res.ColumnTypes, wantTypes) {
		t.Errorf("columns %v %v, want %v %v", res.Columns, res.ColumnTypes, wantCols, wantTypes)
	}
	if !res.Truncated || len(res.Rows) != 2 {
		t.Errorf("truncated %v with %d rows, want true with 2", res.Truncated, len(res.Rows))
	}
	got, _ := json.Marshal(res.Rows)
	want := `[[1,"2021-01-01 00:00:00",1.98,"Germany",3.96,"STUTTGART"],[2,"2021-01-02 00:00:00",3.96,"Norway",7.92,"OSLO"]]`
	if string(got) != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
	// The text-stored datetime read through an aggregate (no declared type)
	// has the same text as the column read directly.
	res, err = s.Query(context.Background(), "SELECT min(InvoiceDate) FROM Invoice", nil, 0)
	if err != nil || res.Rows[0][0] != "2021-01-01 00:00:00" || res.Truncated {
		t.Errorf("min(InvoiceDate) = %v, %v", res, err)
	}
}

func TestQueryRowCap(t *testing.T) {
	p := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2), (3)")
	s := openTest(t, p, source.Options{RowLimit: 2})
	s3 := openTest(t, p, source.Options{RowLimit: 3})
	sourcetest.CheckRowLimits(t, s, s3)
}

func TestQueryTimeout(t *testing.T) {
	s := openTest(t, sourcetest.TempDB(t, "CREATE TABLE t (a)"), source.Options{Timeout: 200 * time.Millisecond})
	tests := []struct {
		name, sql string
	}{
		// All the work happens in the first step.
		{"count to 1e9", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"},
		// The first row comes at once, the second only after ~1e9 steps:
		// the slow step runs inside rows.Next, where modernc.org/sqlite
		// itself does not interrupt.
		{"slow second row", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT x FROM c WHERE x = 1 OR x = 999999999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := s.Query(context.Background(), tt.sql, nil, 10)
			d := time.Since(start)
			se := sourcetest.AsError(t, err)
			if se.Code != source.CodeTimeout {
				t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeTimeout)
			}
			// Uninterrupted, these run for a minute; the bound leaves room
			// for a loaded machine.
			if d > 10*time.Second {
				t.Errorf("took %s to time out at 200ms", d)
			}
		})
	}
	// The pool is fine afterwards.
	if _, err := s.Query(context.Background(), "SELECT 1", nil, 1); err != nil {
		t.Errorf("after timeouts: %v", err)
	}
}

func TestQueryCancel(t *testing.T) {
	s := openTest(t, sourcetest.TempDB(t, "CREATE TABLE t (a)"), source.Options{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x = 1 OR x < 0", nil, 10)
	se := sourcetest.AsError(t, err)
	if se.Code != source.CodeCancelled {
		t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeCancelled)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s to cancel", d)
	}
	// A caller's deadline is a timeout too.
	ctx, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	_, err = s.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", nil, 10)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeTimeout {
		t.Errorf("caller deadline: code %s, want %s", se.Code, source.CodeTimeout)
	}
}

func TestQueryRefusals(t *testing.T) {
	s := openTest(t, sourcetest.TempDB(t, "CREATE TABLE t (a TEXT)", "INSERT INTO t VALUES ('a')"), source.Options{})
	sourcetest.CheckRefusals(t, s, []sourcetest.Refusal{
		{SQL: "", Code: source.CodeQueryFailed, Msg: "no statement"},
		{SQL: " ;; /* x */ ", Code: source.CodeQueryFailed, Msg: "no statement"},
		{SQL: "SELECT 1; SELECT 2", Code: source.CodeReadOnly, Msg: "more than one statement"},
		{SQL: "EXPLAIN SELECT 1", Code: source.CodeReadOnly, Msg: "only SELECT"},
		{SQL: "VACUUM", Code: source.CodeReadOnly, Msg: "only SELECT"},
		{SQL: "SELECT * FROM pragma_table_info('t')", Code: source.CodeReadOnly, Msg: "PRAGMA table_info"},
		{SQL: "SELECT name FROM pragma_database_list", Code: source.CodeReadOnly, Msg: "PRAGMA database_list"},
		{SQL: "SELECT load_extension('x')", Code: source.CodeReadOnly, Msg: "load_extension"},
		{SQL: "SELECT zeroblob(1000000000)", Code: source.CodeReadOnly, Msg: "zeroblob"},
		{SQL: "SELECT randomblob(10)", Code: source.CodeReadOnly, Msg: "randomblob"},
		{SQL: "SELECT sqlite_compileoption_get(0)", Code: source.CodeReadOnly, Msg: "sqlite_compileoption_get"},
		{SQL: "SELECT readfile('/etc/hostname')", Code: source.CodeQueryFailed, Msg: "no such function"},
		{SQL: "SELECT * FROM sqlite_dbpage", Code: source.CodeReadOnly, Msg: ""},
		{SQL: "SELECT * FROM nope", Code: source.CodeQueryFailed, Msg: "no such table"},
		// Double-quoted strings are identifiers only (_dqs=0).
		{SQL: `SELECT a FROM t WHERE a = "abc"`, Code: source.CodeQueryFailed, Msg: "no such column"},
		// A value over MaxValueBytes.
		{SQL: "SELECT length(printf('%.*c', 20000000, 'x'))", Code: source.CodeQueryFailed, Msg: "larger than"},
	})
}

func TestQuerySemantics(t *testing.T) {
	s := openTest(t, sourcetest.TempDB(t, "CREATE TABLE t (a TEXT)", "INSERT INTO t VALUES ('Abc'), ('abc')"), source.Options{})
	tests := []struct {
		sql  string
		want string // JSON of the rows
	}{
		// LIKE is case-sensitive, as in PostgreSQL.
		{"SELECT a FROM t WHERE a LIKE 'a%' ORDER BY a", `[["abc"]]`},
		{"SELECT 'a' LIKE 'A'", `[[0]]`},
		// Allowed functions work, window functions and JSON included.
		{"SELECT a, row_number() OVER (ORDER BY a) FROM t ORDER BY a", `[["Abc",1],["abc",2]]`},
		{`SELECT json_extract('{"x": [1, 2]}', '$.x[1]'), '{"x":1}' ->> '$.x'`, `[[2,1]]`},
		{"SELECT date('2024-02-28', '+1 day'), strftime('%Y', '2024-02-28')", `[["2024-02-29","2024"]]`},
		{"VALUES (1, 'x')", `[[1,"x"]]`},
		{"WITH x(n) AS (SELECT 2) SELECT n * ? FROM x", `[[6]]`},
		// Encoding of expression values.
		{"SELECT 9007199254740991, 9007199254740992, -9007199254740993, 0.1 + 0.2, 1e999, -1e999, NULL, x'00ff', '007'",
			`[[9007199254740991,"9007199254740992","-9007199254740993",0.30000000000000004,"Infinity","-Infinity",null,"AP8=","007"]]`},
	}
	for _, tt := range tests {
		var args []any
		if strings.Contains(tt.sql, "?") {
			args = []any{3}
		}
		res, err := s.Query(context.Background(), tt.sql, args, 10)
		if err != nil {
			t.Errorf("%q: %v", tt.sql, err)
			continue
		}
		got, err := json.Marshal(res.Rows)
		if err != nil {
			t.Errorf("%q: %v", tt.sql, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.sql, got, tt.want)
		}
	}
}

func TestQueryConcurrent(t *testing.T) {
	s := openTest(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"), source.Options{})
	sourcetest.CheckConcurrentCounts(t, s, "SELECT count(*) FROM Track WHERE TrackId > ?", func(i int) int64 { return int64(3503 - i) })
}

// TestSharedViews queries every view of the shared Northwind and Sakila
// databases: the function allow-list and trusted_schema=OFF must not break
// real views.
func TestSharedViews(t *testing.T) {
	for _, db := range []string{"data/northwind/northwind.sqlite", "data/sakila/sakila.sqlite"} {
		t.Run(filepath.Base(db), func(t *testing.T) {
			s := openTest(t, sourcetest.SharedPath(t, db), source.Options{})
			snap := sourcetest.Snapshot(t, s)
			views := 0
			for _, tb := range snap.Tables {
				if tb.Kind != "view" {
					continue
				}
				views++
				if _, err := s.Query(context.Background(), "SELECT * FROM "+source.QuoteIdent(tb.Name), nil, 5); err != nil {
					t.Errorf("view %q: %v", tb.Name, err)
				}
			}
			if views == 0 {
				t.Error("no views found")
			}
		})
	}
}
