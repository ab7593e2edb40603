package duckdb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/planast"
)

func TestOpenDuckDBUnavailable(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.duckdb")
	sourcetest.NotADatabase(t, garbage, 1000)
	sqliteFile := filepath.Join(dir, "real.sqlite")
	sourcetest.ExecWritable(t, sqliteFile, "CREATE TABLE t (a)")
	hash := filepath.Join(dir, "a#b.duckdb")
	sourcetest.DuckExec(t, hash, "CREATE TABLE t (a INTEGER)")
	// a header whose checksum no longer matches: DuckDB says "checksum …
	// in block at location 0", which once read as a lock to wait out
	damaged := filepath.Join(dir, "damaged.duckdb")
	sourcetest.DuckExec(t, damaged, "CREATE TABLE t (a INTEGER)")
	f, err := os.OpenFile(damaged, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x45}, 12); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		name, path, msg string
	}{
		{"missing", filepath.Join(dir, "missing.duckdb"), "does not exist"},
		{"directory", dir, "directory"},
		{"not a database", garbage, "not a DuckDB database"},
		{"an SQLite file", sqliteFile, "is an SQLite database, not a DuckDB one"},
		{"hash in path", hash, "'?' or '#'"},
		{"damaged header", damaged, "not a DuckDB database this version can read"},
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
			if se.Transient {
				t.Errorf("%q is marked retryable: sending it again fails the same way", se.Msg)
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
	sourcetest.CheckValueCases(t, d, []sourcetest.ValueCase{
		{SQL: `SELECT 9007199254740991::BIGINT, 9007199254740992::BIGINT, -9007199254740993::BIGINT,
			170141183460469231731687303715884105727::HUGEINT, 18446744073709551615::UBIGINT, 7::UTINYINT, -3::TINYINT`,
			Types: []planast.Type{"integer", "integer", "integer", "integer", "integer", "integer", "integer"},
			Rows:  `[[9007199254740991,"9007199254740992","-9007199254740993","170141183460469231731687303715884105727","18446744073709551615",7,-3]]`},
		{SQL: `SELECT 0.1::FLOAT, 0.1::DOUBLE, 0.1::DOUBLE + 0.2::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, 'nan'::DOUBLE`,
			Types: []planast.Type{"float", "float", "float", "float", "float", "float"},
			Rows:  `[[0.1,0.1,0.30000000000000004,"Infinity","-Infinity","NaN"]]`},
		{SQL: `SELECT 1.50::DECIMAL(10,2), 12345678901234567.89::DECIMAL(20,2), -0.05::DECIMAL(4,2), 123456789012345.6::DECIMAL(18,1), 0::DECIMAL(5,3)`,
			Types: []planast.Type{"decimal", "decimal", "decimal", "decimal", "decimal"},
			Rows:  `[[1.50,"12345678901234567.89",-0.05,"123456789012345.6",0.000]]`},
		{SQL: `SELECT NULL, '\x00\xff'::BLOB, '007', 'null', true`,
			Types: []planast.Type{"integer", "blob", "text", "text", "boolean"},
			Rows:  `[[null,"AP8=","007","null",true]]`},
		{SQL: `SELECT DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.5', TIMESTAMPTZ '2024-01-02 03:04:05+02', TIME '10:11:12.25', TIMETZ '10:00:00+02'`,
			Types: []planast.Type{"date", "timestamp", "timestamp", "text", "text"},
			Rows:  `[["2024-02-29","2024-01-02 03:04:05.5","2024-01-02 01:04:05+00:00","10:11:12.25","10:00:00+02:00"]]`},
		{SQL: `SELECT INTERVAL '1 year 2 months 3 days 04:05:06.5', INTERVAL '-3 days', INTERVAL '0 seconds', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID`,
			Types: []planast.Type{"interval", "interval", "interval", "text"},
			Rows:  `[["P1Y2M3DT4H5M6.5S","P-3D","PT0S","6ba7b810-9dad-11d1-80b4-00c04fd430c8"]]`},
		{SQL: `SELECT [1, 2], {'x': 1.5::DECIMAL(3,1), 'y': 'z'}, '{"a": [1, 2]}'::JSON, MAP {'k': 1}`,
			Types: []planast.Type{"json", "json", "json", "json"},
			Rows:  `[["[1,2]","{\"x\":1.5,\"y\":\"z\"}","{\"a\": [1, 2]}","{\"k\":1}"]]`}, // a JSON document as the database holds it
		{SQL: `SELECT $1::INTEGER + 1, $2::VARCHAR`, Types: []planast.Type{"integer", "text"}, Rows: `[[42,"x"]]`},
	})
}

func TestDuckDBQueryRowCap(t *testing.T) {
	p := sourcetest.DuckTempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2), (3)")
	d := openDuckTest(t, p, source.Options{RowLimit: 2})
	d3 := openDuckTest(t, p, source.Options{RowLimit: 3})
	sourcetest.CheckRowLimits(t, d, d3)
	// A large result stops at the cap.
	res, err := d3.Query(context.Background(), "SELECT * FROM range(1000000)", nil, 3)
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
	sourcetest.CheckRefusals(t, d, []sourcetest.Refusal{
		{SQL: "", Code: source.CodeQueryFailed, Msg: "no statement"},
		{SQL: "SELECT 1; SELECT 2", Code: source.CodeReadOnly, Msg: "more than one statement"},
		{SQL: "PRAGMA database_list", Code: source.CodeReadOnly, Msg: "only SELECT"},
		{SQL: "SELECT * FROM read_csv('/etc/passwd')", Code: source.CodeReadOnly, Msg: "read-only policy"},
		{SQL: "SELECT * FROM read_parquet('https://example.com/x.parquet')", Code: source.CodeReadOnly, Msg: "read-only policy"},
		{SQL: "SELECT * FROM nope", Code: source.CodeQueryFailed, Msg: "nope"},
		{SQL: "SELECT nextval('s')", Code: source.CodeQueryFailed, Msg: ""},
	})
}

func TestDuckDBQueryConcurrent(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, "CREATE TABLE t AS SELECT range AS a FROM range(1000)"), source.Options{})
	sourcetest.CheckConcurrentCounts(t, d, "SELECT count(*) FROM t WHERE a >= ?", func(i int) int64 { return int64(1000 - i) })
}

// The threat: a DuckDB file written by a newer DuckDB (a user's 2.0 CLI)
// was "the database file cannot be opened" with a hint to check the path,
// which is right; and a damaged one was "locked, retry later". The texts
// are DuckDB's own (its refusal of a newer storage version, its lock
// errors, a checksum error naming a block).
func TestDuckDBOpenErrorsSayWhy(t *testing.T) {
	tests := []struct {
		driver, msg, hint string
		temporary         bool
	}{
		{"IO Error: Trying to read a database file with version number 69, but we can only read versions between 64 and 68.\nThe database file was created with a newer version of DuckDB.",
			"written by a newer DuckDB (storage version 69) than this server's, which reads storage versions 64 to 68", "STORAGE_VERSION", false},
		{`IO Error: Could not set lock on file "/x/a.duckdb": Conflicting lock is held in /usr/bin/duckdb (PID 4242)`, "the database is locked", "retry later", true},
		{"IO Error: Corrupt database file: computed checksum 1464080592923546317 does not match stored checksum 9572833287034917581 in block at location 0",
			"not a DuckDB database this version can read", "", false},
	}
	for _, tt := range tests {
		se := duckdbOpenError(errors.New(tt.driver))
		if !strings.Contains(se.Msg, tt.msg) || !strings.Contains(se.Hint, tt.hint) || se.Transient != tt.temporary {
			t.Errorf("%q: got %q (hint %q, retryable %v), want %q, hint with %q, retryable %v", tt.driver, se.Msg, se.Hint, se.Transient, tt.msg, tt.hint, tt.temporary)
		}
	}
}
