package duckdb

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/planast"
)

func TestOpenDuckDBUnavailable(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.duckdb")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	sqliteFile := filepath.Join(dir, "real.sqlite")
	sourcetest.ExecWritable(t, sqliteFile, "CREATE TABLE t (a)")
	hash := filepath.Join(dir, "a#b.duckdb")
	sourcetest.DuckExec(t, hash, "CREATE TABLE t (a INTEGER)")
	tests := []struct {
		name, path, msg string
	}{
		{"missing", filepath.Join(dir, "missing.duckdb"), "does not exist"},
		{"directory", dir, "directory"},
		{"not a database", garbage, "not a DuckDB database"},
		{"an SQLite file", sqliteFile, "is an SQLite database, not a DuckDB one"},
		{"hash in path", hash, "'?' or '#'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := OpenDuckDB(context.Background(), "x", tt.path, source.Options{})
			if err == nil {
				d.Close()
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
	if _, err := os.Stat(filepath.Join(dir, "missing.duckdb")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing database was created: %v", err)
	}
}

// TestDuckDBSettings reads every engine-level read-only setting back
// through Query.
func TestDuckDBSettings(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{})
	if d.ID() != "test" || d.Dialect() != "duckdb" {
		t.Errorf("ID, Dialect = %q, %q", d.ID(), d.Dialect())
	}
	want := map[string]string{
		"access_mode":                  "read_only",
		"enable_external_access":       "false",
		"autoinstall_known_extensions": "false",
		"autoload_known_extensions":    "false",
		"allow_community_extensions":   "false",
		"lock_configuration":           "true",
		"max_temp_directory_size":      "0 bytes",
	}
	for name, w := range want {
		res, err := d.Query(context.Background(), "SELECT CAST(current_setting('"+name+"') AS VARCHAR)", nil, 1)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got, _ := res.Rows[0][0].(string); !strings.EqualFold(got, w) {
			t.Errorf("%s = %q, want %q", name, got, w)
		}
	}
	// The configuration cannot be changed, not even to the same value.
	for _, q := range []string{"SET enable_external_access = true", "RESET access_mode", "SET threads = 1"} {
		if _, err := d.fetch(context.Background(), q, nil, 1); err == nil || sourcetest.AsError(t, err).Code != source.CodeReadOnly {
			t.Errorf("%s: %v, want %s", q, err, source.CodeReadOnly)
		}
	}
}

func TestDuckDBQueryValues(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{})
	tests := []struct {
		sql   string
		types []planast.Type
		rows  string // JSON
	}{
		{`SELECT 9007199254740991::BIGINT, 9007199254740992::BIGINT, -9007199254740993::BIGINT,
			170141183460469231731687303715884105727::HUGEINT, 18446744073709551615::UBIGINT, 7::UTINYINT, -3::TINYINT`,
			[]planast.Type{"integer", "integer", "integer", "integer", "integer", "integer", "integer"},
			`[[9007199254740991,"9007199254740992","-9007199254740993","170141183460469231731687303715884105727","18446744073709551615",7,-3]]`},
		{`SELECT 0.1::FLOAT, 0.1::DOUBLE, 0.1::DOUBLE + 0.2::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, 'nan'::DOUBLE`,
			[]planast.Type{"float", "float", "float", "float", "float", "float"},
			`[[0.1,0.1,0.30000000000000004,"Infinity","-Infinity","NaN"]]`},
		{`SELECT 1.50::DECIMAL(10,2), 12345678901234567.89::DECIMAL(20,2), -0.05::DECIMAL(4,2), 123456789012345.6::DECIMAL(18,1), 0::DECIMAL(5,3)`,
			[]planast.Type{"decimal", "decimal", "decimal", "decimal", "decimal"},
			`[[1.5,"12345678901234567.89",-0.05,"123456789012345.6",0]]`},
		{`SELECT NULL, '\x00\xff'::BLOB, '007', 'null', true`,
			[]planast.Type{"integer", "blob", "text", "text", "boolean"},
			`[[null,"AP8=","007","null",true]]`},
		{`SELECT DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.5', TIMESTAMPTZ '2024-01-02 03:04:05+02', TIME '10:11:12.25', TIMETZ '10:00:00+02'`,
			[]planast.Type{"date", "timestamp", "timestamp", "text", "text"},
			`[["2024-02-29","2024-01-02 03:04:05.5","2024-01-02 01:04:05+00:00","10:11:12.25","10:00:00+02:00"]]`},
		{`SELECT INTERVAL '1 year 2 months 3 days 04:05:06.5', INTERVAL '-3 days', INTERVAL '0 seconds', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID`,
			[]planast.Type{"interval", "interval", "interval", "text"},
			`[["P1Y2M3DT4H5M6.5S","P-3D","PT0S","6ba7b810-9dad-11d1-80b4-00c04fd430c8"]]`},
		{`SELECT [1, 2], {'x': 1.5::DECIMAL(3,1), 'y': 'z'}, '{"a": [1, 2]}'::JSON, MAP {'k': 1}`,
			[]planast.Type{"json", "json", "json", "json"},
			`[["[1,2]","{\"x\":1.5,\"y\":\"z\"}","{\"a\": [1, 2]}","{\"k\":1}"]]`}, // a JSON document as the database holds it
		{`SELECT $1::INTEGER + 1, $2::VARCHAR`, []planast.Type{"integer", "text"}, `[[42,"x"]]`},
	}
	for _, tt := range tests {
		var args []any
		if strings.Contains(tt.sql, "$1") {
			args = []any{41, "x"}
		}
		res, err := d.Query(context.Background(), tt.sql, args, 10)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		rows, err := json.Marshal(res.Rows)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		if string(rows) != tt.rows || !reflect.DeepEqual(res.ColumnTypes, tt.types) {
			t.Errorf("%s:\n got %s %v\nwant %s %v", tt.sql, rows, res.ColumnTypes, tt.rows, tt.types)
		}
	}
}

func TestDuckDBQueryRowCap(t *testing.T) {
	p := sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2), (3)")
	d := openDuckTest(t, p, source.Options{RowLimit: 2})
	tests := []struct {
		maxRows, rows int
		truncated     bool
	}{{0, 2, true}, {10, 2, true}, {1, 1, true}, {2, 2, true}}
	for _, tt := range tests {
		res, err := d.Query(context.Background(), "SELECT a FROM t ORDER BY a", nil, tt.maxRows)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != tt.rows || res.Truncated != tt.truncated {
			t.Errorf("maxRows %d: %d rows, truncated %v; want %d, %v", tt.maxRows, len(res.Rows), res.Truncated, tt.rows, tt.truncated)
		}
	}
	d3 := openDuckTest(t, p, source.Options{RowLimit: 3})
	res, err := d3.Query(context.Background(), "SELECT a FROM t", nil, 3)
	if err != nil || len(res.Rows) != 3 || res.Truncated {
		t.Errorf("exact fit: %+v, %v", res, err)
	}
	res, err = d3.Query(context.Background(), "SELECT a FROM t WHERE a > 5", nil, 3)
	if err != nil || len(res.Rows) != 0 || res.Rows == nil || res.Truncated || len(res.Columns) != 1 {
		t.Errorf("empty result: %+v, %v", res, err)
	}
	// A large result stops at the cap.
	res, err = d3.Query(context.Background(), "SELECT * FROM range(1000000)", nil, 3)
	if err != nil || len(res.Rows) != 3 || !res.Truncated {
		t.Errorf("range: %+v, %v", res, err)
	}
}

func TestDuckDBTimeoutAndCancel(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{Timeout: 300 * time.Millisecond})
	slow := "SELECT count(*) FROM range(1000000000000) AS a(x) WHERE x % 7 = 3"
	start := time.Now()
	_, err := d.Query(context.Background(), slow, nil, 10)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeTimeout {
		t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeTimeout)
	}
	if dt := time.Since(start); dt > 10*time.Second {
		t.Errorf("took %s to time out at 300ms", dt)
	}
	long := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)"), source.Options{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start = time.Now()
	_, err = long.Query(ctx, slow, nil, 10)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeCancelled {
		t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeCancelled)
	}
	if dt := time.Since(start); dt > 10*time.Second {
		t.Errorf("took %s to cancel", dt)
	}
	// The connections are fine afterwards.
	if _, err := d.Query(context.Background(), "SELECT 1", nil, 1); err != nil {
		t.Errorf("after timeouts: %v", err)
	}
}

func TestDuckDBQueryRefusals(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t (a VARCHAR)", "INSERT INTO t VALUES ('a')"), source.Options{})
	tests := []struct {
		sql, code, msg string
	}{
		{"", source.CodeQueryFailed, "no statement"},
		{"SELECT 1; SELECT 2", source.CodeReadOnly, "more than one statement"},
		{"PRAGMA database_list", source.CodeReadOnly, "only SELECT"},
		{"SELECT * FROM read_csv('/etc/passwd')", source.CodeReadOnly, "read-only policy"},
		{"SELECT * FROM read_parquet('https://example.com/x.parquet')", source.CodeReadOnly, "read-only policy"},
		{"SELECT * FROM nope", source.CodeQueryFailed, "nope"},
		{"SELECT nextval('s')", source.CodeQueryFailed, ""},
	}
	for _, tt := range tests {
		_, err := d.Query(context.Background(), tt.sql, nil, 10)
		if err == nil {
			t.Errorf("%q: accepted", tt.sql)
			continue
		}
		se := sourcetest.AsError(t, err)
		if se.Code != tt.code || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: %v, want %s containing %q", tt.sql, se, tt.code, tt.msg)
		}
	}
}

func TestDuckDBQueryConcurrent(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t AS SELECT range AS a FROM range(1000)"), source.Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := d.Query(context.Background(), "SELECT count(*) FROM t WHERE a >= ?", []any{i}, 1)
			if err != nil {
				errs <- err
				return
			}
			if res.Rows[0][0] != int64(1000-i) {
				errs <- errors.New("wrong count")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
