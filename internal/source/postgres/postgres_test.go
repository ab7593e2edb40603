package postgres

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/planast"
)

func TestOpenPostgresUnavailable(t *testing.T) {
	f := sourcetest.NewPGFixture(t)
	tests := []struct {
		name, dsn, msg string
	}{
		{"does not parse", "postgres://a b:%zz@/", "does not parse"},
		// a typo in the scheme is named (the rest of the DSN, which may
		// hold a password, is not)
		{"scheme typo", "postgress://u:pw_secret@127.0.0.1:5432/x", `its scheme is "postgress"`},
		{"no server", "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", "nothing accepts connections"},
		// postgres:// alone leads to the local socket, which a user who
		// meant localhost:5432 must be told
		{"no host", "postgres:///x?host=/nonexistent-socket-dir&sslmode=disable&connect_timeout=2", "local socket"},
		// the test cluster has no TLS: a DSN that requires it must say so,
		// not send the user looking for a server that is down
		{"tls required", sourcetest.WithParam(f.ReadOnly, "sslmode", "require"), "refused a TLS connection"},
		{"no such role", sourcetest.WithDSN(f.ReadOnly, "nl2sql_no_such_role", "pw", f.DB), `refused the login: role "nl2sql_no_such_role" does not exist`},
		{"no such database", sourcetest.WithDSN(f.ReadOnly, "", "", "nl2sql_no_such_db"), "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := OpenPostgres(context.Background(), "x", tt.dsn, source.Options{Timeout: 5 * time.Second})
			if err == nil {
				p.Close()
				t.Fatal("opened")
			}
			se := sourcetest.AsError(t, err)
			if se.Code != source.CodeUnavailable || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v (%v), want %s containing %q", se, se.Err, source.CodeUnavailable, tt.msg)
			}
			if strings.Contains(se.Msg, "pw_") || strings.Contains(se.Msg, "postgres://") {
				t.Errorf("message shows the DSN: %q", se.Msg)
			}
		})
	}
}

// TestOpenPostgresWritableRole: a role that can write is refused, unless
// AllowWritableRole, and even then the read-only transaction holds.
func TestOpenPostgresWritableRole(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a integer)", "INSERT INTO t VALUES (1)", "CREATE SCHEMA other")
	tests := []struct {
		name  string
		grant string // run as the superuser before opening, "" to use the superuser itself
		why   string
	}{
		{"superuser", "", "superuser"},
		{"insert", "GRANT INSERT ON t TO %s", "may change or owns public.t"},
		{"column update", "GRANT UPDATE (a) ON t TO %s", "may change or owns public.t"},
		{"truncate", "GRANT TRUNCATE ON t TO %s", "may change or owns public.t"},
		{"owner", "ALTER TABLE t OWNER TO %s", "may change or owns public.t"},
		{"create in schema", "GRANT CREATE ON SCHEMA other TO %s", "CREATE in schema other"},
		{"create in database", "GRANT CREATE ON DATABASE " + f.DB + " TO %s", "CREATE in the database"},
		{"server files", "GRANT pg_write_server_files TO %s", "server files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := f.Super
			if tt.grant != "" {
				dsn = f.ReadOnly
				sourcetest.PGExec(t, f.Super, strings.ReplaceAll(tt.grant, "%s", f.Role))
				undo := strings.Replace(strings.Replace(tt.grant, "GRANT", "REVOKE", 1), " TO ", " FROM ", 1)
				if strings.HasPrefix(tt.grant, "ALTER") {
					undo = "ALTER TABLE t OWNER TO CURRENT_USER"
				}
				defer sourcetest.PGExec(t, f.Super, strings.ReplaceAll(undo, "%s", f.Role))
			}
			p, err := OpenPostgres(context.Background(), "x", dsn, source.Options{})
			if err == nil {
				p.Close()
				t.Fatal("opened with a writable role")
			}
			if se := sourcetest.AsError(t, err); se.Code != source.CodeUnavailable || !strings.Contains(se.Msg, tt.why) {
				t.Errorf("got %v, want %s containing %q", se, source.CodeUnavailable, tt.why)
			}
			var logged bytes.Buffer
			prev := slog.Default()
			slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
			p = openPGTest(t, dsn, source.Options{AllowWritableRole: true})
			slog.SetDefault(prev)
			if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), tt.why) {
				t.Errorf("no warning logged: %q", logged.String())
			}
			_, err = p.Query(context.Background(), "WITH d AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM d", nil, 1)
			if se := sourcetest.AsError(t, err); se.Code != source.CodeReadOnly {
				t.Errorf("delete through a writable role: %v, want %s", se, source.CodeReadOnly)
			}
			p.Close()
		})
	}
	if n := sourcetest.PGQueryString(t, f.Super, "SELECT count(*)::text FROM t"); n != "1" {
		t.Errorf("t has %s rows", n)
	}
	// The read-only role itself opens.
	openPGTest(t, f.ReadOnly, source.Options{})
}

// TestPostgresSession checks the session and transaction settings every
// query runs under, and that a query cannot change them for the next.
func TestPostgresSession(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a integer)")
	p := openPGTest(t, f.ReadOnly, source.Options{Timeout: 7 * time.Second})
	if p.ID() != "test" || p.Dialect() != "postgres" {
		t.Errorf("ID, Dialect = %q, %q", p.ID(), p.Dialect())
	}
	want := map[string]string{
		"application_name":              "nl2sql",
		"standard_conforming_strings":   "on",
		"search_path":                   "public",
		"TimeZone":                      "UTC",
		"IntervalStyle":                 "iso_8601",
		"transaction_read_only":         "on",
		"default_transaction_read_only": "on",
		"statement_timeout":             "7s",
		// an unordered scan cut by a LIMIT keeps the same rows on every run
		"synchronize_seqscans": "off",
	}
	for i := range 3 { // several pooled connections, before and after a set_config
		for name, w := range want {
			res, err := p.Query(context.Background(), "SELECT current_setting($1)", []any{name}, 1)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := res.Rows[0][0]; got != w {
				t.Errorf("round %d: %s = %v, want %s", i, name, got, w)
			}
		}
		for _, q := range []string{
			"SELECT set_config('search_path', 'pg_temp', false)",
			"SELECT set_config('default_transaction_read_only', 'off', false)",
			"SELECT set_config('statement_timeout', '0', false)",
			"SELECT set_config('standard_conforming_strings', 'off', false)",
		} {
			if _, err := p.Query(context.Background(), q, nil, 1); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	}
	// The extended protocol refuses several statements in one text even
	// below the lexical gate.
	_, err := p.fetch(context.Background(), "SELECT 1; SELECT 2", nil, 1)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeReadOnly && se.Code != source.CodeQueryFailed || !strings.Contains(se.Msg, "multiple commands") {
		t.Errorf("two statements below the gate: %v", se)
	}
}

func TestPostgresQueryValues(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TYPE mood AS ENUM ('sad', 'happy')")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.CheckValueCases(t, p, []sourcetest.ValueCase{
		{SQL: `SELECT 9007199254740991::int8, 9007199254740992::int8, -9007199254740993::int8, 7::int2, 8::int4, 3000000000::oid`,
			Types: []planast.Type{"integer", "integer", "integer", "integer", "integer", "integer"},
			Rows:  `[[9007199254740991,"9007199254740992","-9007199254740993",7,8,3000000000]]`},
		{SQL: `SELECT 0.1::float4, 0.1::float8, 0.1::float8 + 0.2::float8, 'Infinity'::float8, '-Infinity'::float8, 'NaN'::float8`,
			Types: []planast.Type{"float", "float", "float", "float", "float", "float"},
			Rows:  `[[0.1,0.1,0.30000000000000004,"Infinity","-Infinity","NaN"]]`},
		{SQL: `SELECT 1.50::numeric(10,2), 12345678901234567.89::numeric(20,2), -0.05::numeric, 123456789012345.6::numeric, 'NaN'::numeric, 1e20::numeric`,
			Types: []planast.Type{"decimal", "decimal", "decimal", "decimal", "decimal", "decimal"},
			Rows:  `[[1.50,"12345678901234567.89",-0.05,"123456789012345.6","NaN","100000000000000000000"]]`},
		// a zero at its column's scale, as psql shows it (the wire carries
		// no digits for a zero, so pgx reads "0")
		{SQL: `SELECT 0::numeric(30,10), 35.48::numeric(30,10), 0::numeric(10,2), 0::numeric`,
			Types: []planast.Type{"decimal", "decimal", "decimal", "decimal"},
			Rows:  `[[0.0000000000,35.4800000000,0.00,0]]`},
		// a computed zero has no column scale: its own display scale says
		// how psql writes it
		{SQL: `SELECT 0.0000::numeric * 2, 120.5000::numeric - 120.5000::numeric, 0.00::numeric(10,2) + 0`,
			Types: []planast.Type{"decimal", "decimal", "decimal"},
			Rows:  `[[0.0000,0.0000,0.00]]`},
		{SQL: `SELECT NULL::text, '\x00ff'::bytea, '007', 'null', true, 'happy'::mood, 'x'::varchar(3), 'y'::char(2)`,
			Types: []planast.Type{"text", "blob", "text", "text", "boolean", "text", "text", "text"},
			Rows:  `[[null,"AP8=","007","null",true,"happy","x","y "]]`},
		{SQL: `SELECT DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.5', TIMESTAMPTZ '2024-01-02 03:04:05+02', TIME '10:11:12.25', 'infinity'::date, '-infinity'::timestamp, '10:00:00+02'::timetz`,
			Types: []planast.Type{"date", "timestamp", "timestamp", "text", "date", "timestamp", "text"},
			Rows:  `[["2024-02-29","2024-01-02 03:04:05.5","2024-01-02 01:04:05+00:00","10:11:12.25","infinity","-infinity","10:00:00+02"]]`},
		{SQL: `SELECT INTERVAL '1 year 2 months 3 days 04:05:06.5', INTERVAL '-3 days', INTERVAL '0', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid`,
			Types: []planast.Type{"interval", "interval", "interval", "text"},
			Rows:  `[["P1Y2M3DT4H5M6.5S","P-3D","PT0S","6ba7b810-9dad-11d1-80b4-00c04fd430c8"]]`},
		// network values as PostgreSQL writes them: an inet host without
		// its full mask, a cidr always with it
		{SQL: `SELECT ARRAY[1, 2], '{"a": [1, 2.50]}'::json, '{"b": 1, "a": 2}'::jsonb, '192.168.0.1/24'::inet, '10.0.0.1'::inet, '::1'::inet, '10.0.0.0/8'::cidr, '10.0.0.1/32'::cidr`,
			Types: []planast.Type{"array", "json", "json", "text", "text", "text", "text", "text"},
			Rows:  `[["[1,2]","{\"a\": [1, 2.50]}","{\"a\": 2, \"b\": 1}","192.168.0.1/24","10.0.0.1","::1","10.0.0.0/8","10.0.0.1/32"]]`},
		// arrays whose subscripts do not start at 1 say where they start:
		// a[1] of the first is 2, which a bare [1,2,3] would not tell
		{SQL: `SELECT '[0:2]={1,2,3}'::int[], '[0:1][1:2]={{1,2},{3,4}}'::int[], '{{1,2},{3,4}}'::int[], '{}'::int[]`,
			Types: []planast.Type{"array", "array", "array", "array"},
			Rows:  `[["{\"[0:2]\":[1,2,3]}","{\"[0:1][1:2]\":[[1,2],[3,4]]}","[[1,2],[3,4]]","[]"]]`},
		{SQL: `SELECT $1::int + 1, $2::text`, Types: []planast.Type{"integer", "text"}, Rows: `[[42,"x"]]`},
	})
}

func TestPostgresQueryRowCap(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a integer)", "INSERT INTO t VALUES (1), (2), (3)")
	p := openPGTest(t, f.ReadOnly, source.Options{RowLimit: 2})
	p3 := openPGTest(t, f.ReadOnly, source.Options{RowLimit: 3})
	sourcetest.CheckRowLimits(t, p, p3)
	// An endless result stops at the cap, without reading the rest.
	start := time.Now()
	res, err := p3.Query(context.Background(), "SELECT generate_series(1, 1000000000000)", nil, 3)
	if err != nil || len(res.Rows) != 3 || !res.Truncated {
		t.Errorf("endless: %+v, %v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the capped endless result took %s", d)
	}
	// One value may not exceed the message cap.
	_, err = p3.Query(context.Background(), "SELECT repeat('x', 100000000)", nil, 1)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeQueryFailed || !strings.Contains(se.Msg, "larger than") {
		t.Errorf("a 100 MB value: %v", se)
	}
	if res, err := p3.Query(context.Background(), "SELECT count(*) FROM t", nil, 1); err != nil || res.Rows[0][0] != int64(3) {
		t.Errorf("afterwards: %v, %v", res, err)
	}
}

func TestPostgresTimeoutAndCancel(t *testing.T) {
	f := sourcetest.NewPGFixture(t)
	p := openPGTest(t, f.ReadOnly, source.Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := p.Query(context.Background(), "SELECT pg_sleep(3600)", nil, 1)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeTimeout || se.Waited {
		t.Errorf("code %s waited %v (%v), want %s from the query's own work", se.Code, se.Waited, se, source.CodeTimeout)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s to time out at 300ms", d)
	}
	long := openPGTest(t, f.ReadOnly, source.Options{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start = time.Now()
	_, err = long.Query(ctx, "SELECT pg_sleep(3600)", nil, 1)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeCancelled {
		t.Errorf("code %s (%v), want %s", se.Code, se, source.CodeCancelled)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s to cancel", d)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	_, err = long.Query(ctx, "SELECT pg_sleep(3600)", nil, 1)
	if se := sourcetest.AsError(t, err); se.Code != source.CodeTimeout {
		t.Errorf("caller deadline: code %s, want %s", se.Code, source.CodeTimeout)
	}
	for _, q := range []*Postgres{p, long} {
		if _, err := q.Query(context.Background(), "SELECT 1", nil, 1); err != nil {
			t.Errorf("after timeouts: %v", err)
		}
	}
	// No session of the role is left running pg_sleep.
	time.Sleep(100 * time.Millisecond)
	if n := sourcetest.PGQueryString(t, f.Super, "SELECT count(*)::text FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'"); n != "0" {
		t.Errorf("%s sessions still sleep", n)
	}
}

func TestPostgresQueryRefusals(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a text)", "INSERT INTO t VALUES ('a')")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.CheckRefusals(t, p, []sourcetest.Refusal{
		{SQL: "", Code: source.CodeQueryFailed, Msg: "no statement"},
		{SQL: "SELECT 1; SELECT 2", Code: source.CodeReadOnly, Msg: "more than one statement"},
		{SQL: "SHOW search_path", Code: source.CodeReadOnly, Msg: "only SELECT"},
		{SQL: "SELECT * FROM nope", Code: source.CodeQueryFailed, Msg: "nope"},
		{SQL: "SELECT pg_ls_dir('/')", Code: source.CodeReadOnly, Msg: "permission denied"},
		{SQL: "SELECT nextval('nope')", Code: source.CodeQueryFailed, Msg: ""},
		{SQL: "SELECT a FROM t WHERE a = \"abc\"", Code: source.CodeQueryFailed, Msg: "column \"abc\" does not exist"},
		// standard_conforming_strings: a backslash is a character.
		{SQL: `SELECT 'a\' = 1`, Code: source.CodeQueryFailed, Msg: "integer"},
	})
}

// The threat: a table's SELECT is revoked while the server runs. The
// refusal read READ_ONLY_VIOLATION with a hint about writes, for a plan
// that was one SELECT: the user looked for a write that never happened.
// A function the role may not call stays a read-only refusal.
func TestPostgresRevokedReadIsNotAWriteRefusal(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE returns (a text)", "CREATE TABLE t (a text)")
	sourcetest.PGExec(t, f.Super, "REVOKE SELECT ON returns FROM "+f.Role)
	p := openPGTest(t, f.ReadOnly, source.Options{})
	_, err := p.Query(context.Background(), "SELECT a FROM returns", nil, 10)
	var se *source.Error
	if !errors.As(err, &se) || se.Code != source.CodeQueryFailed || !strings.Contains(se.Msg, "may not read") ||
		!strings.Contains(se.Hint, "GRANT SELECT") || strings.Contains(se.Hint, "writes") {
		t.Fatalf("revoked table: %#v", err)
	}
	_, err = p.Query(context.Background(), "SELECT pg_ls_dir('/')", nil, 10)
	if !errors.As(err, &se) || se.Code != source.CodeReadOnly {
		t.Fatalf("a function the role may not call: %v", err)
	}
}

// The threat: the role's CONNECT is revoked while the server runs (a DBA
// locking the database). The next query failed as READ_ONLY_VIOLATION,
// "send exactly one SELECT", and the assistant rewrote a plain SELECT
// in vain. It is the datasource being unavailable, with the grant that
// restores it.
func TestPostgresRevokedConnectIsUnavailable(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a text)")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.PGExec(t, f.Super, "REVOKE CONNECT ON DATABASE "+pgx.Identifier{f.DB}.Sanitize()+" FROM PUBLIC, "+pgx.Identifier{f.Role}.Sanitize())
	defer sourcetest.PGExec(t, f.Super, "GRANT CONNECT ON DATABASE "+pgx.Identifier{f.DB}.Sanitize()+" TO "+pgx.Identifier{f.Role}.Sanitize())
	sourcetest.PGExec(t, f.Super, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"+f.Role+"'")
	_, err := p.Query(context.Background(), "SELECT a FROM t", nil, 10)
	var se *source.Error
	if !errors.As(err, &se) || se.Code != source.CodeUnavailable || !strings.Contains(se.Hint, "GRANT CONNECT") {
		t.Fatalf("revoked CONNECT: %#v", err)
	}
}

func TestPostgresQueryConcurrent(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t AS SELECT x AS a FROM generate_series(1, 1000) AS x")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.CheckConcurrentCounts(t, p, "SELECT count(*) FROM t WHERE a > $1", func(i int) int64 { return int64(1000 - i) })
}
