package app

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the writable "duckdb" driver, to build the test database
	"github.com/jackc/pgx/v5"
	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite" // the writable "sqlite" driver, to build the test database

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/mcp"
	"github.com/nl2sql/nl2sql/tools"
)

// Value fidelity end to end: the value encoding rule of
// internal/source/encode.go holds on every result path (the Result JSON that
// `ask --json` prints, MCP run_plan structured content, the text rendering)
// on SQLite, DuckDB and PostgreSQL, and through a DuckDB combination.
//
// Table v holds one value class per row and column: text that is NULL, "",
// "null", "00123", `{"a":1}` and "12"; integers beyond ±(2^53-1) and at its
// edge; a NUMERIC(20,2) that a double cannot carry; a double 0.1; a date, a
// timestamp (with a fraction) and bytes.

// fidelityCols are the columns the plans select, in order.
var fidelityCols = []string{"id", "name", "big", "amount", "f", "day", "ts", "b"}

// fidelityRows are the rows as portable SQL literals, per column (b as hex).
var fidelityRows = [][8]string{
	{"1", "NULL", "9007199254740993", "12345678901234567.89", "0.1", "1974-03-01", "2024-02-29 13:45:06", "00ff10"},
	{"2", "''", "-9007199254740993", "0.10", "2.5", "2024-02-29", "1999-12-31 23:59:59.5", "6869"},
	{"3", "'null'", "0", "-1.00", "-0.25", "1999-12-31", "2000-01-01 00:00:00", ""},
	{"4", "'00123'", "9007199254740991", "NULL", "NULL", "NULL", "NULL", "NULL"},
	{"5", `'{"a":1}'`, "-9007199254740991", "1234567.25", "1e-7", "2000-02-29", "2024-06-30 08:00:00.123456", "NULL"},
	{"6", "'12'", "NULL", "12.00", "123456789.125", "0001-01-01", "1970-01-01 00:00:00", "4e554c4c"},
}

// fidelityExpected is each row's JSON on DuckDB and PostgreSQL, which store
// DECIMAL, DATE and TIMESTAMP natively.
var fidelityExpected = []string{
	`[1,null,"9007199254740993","12345678901234567.89",0.1,"1974-03-01","2024-02-29 13:45:06","AP8Q"]`,
	`[2,"","-9007199254740993",0.1,2.5,"2024-02-29","1999-12-31 23:59:59.5","aGk="]`,
	`[3,"null",0,-1,-0.25,"1999-12-31","2000-01-01 00:00:00",""]`,
	`[4,"00123",9007199254740991,null,null,null,null,null]`,
	`[5,"{\"a\":1}",-9007199254740991,1234567.25,1e-7,"2000-02-29","2024-06-30 08:00:00.123456",null]`,
	`[6,"12",null,12,123456789.125,"0001-01-01","1970-01-01 00:00:00","TlVMTA=="]`,
}

// fidelityExpectedSQLite differs where SQLite's storage differs (see the
// hostile fixture's notes): NUMERIC affinity stores 12345678901234567.89 as
// the integer 12345678901234568 (beyond 2^53, so a string; shown at the
// declared scale 2, as the other engines show their decimals), 0.10 as the
// real 0.1 and -1.00 as the integer -1; dates and timestamps are text as
// stored.
var fidelityExpectedSQLite = []string{
	`[1,null,"9007199254740993","12345678901234568.00",0.1,"1974-03-01","2024-02-29 13:45:06","AP8Q"]`,
	fidelityExpected[1], fidelityExpected[2], fidelityExpected[3], fidelityExpected[4], fidelityExpected[5],
}

// fidelityText is what the text rendering must show per row and column
// (NULL for null, text as stored).
// Stored text shows quoted (a text column's "00123" is text, not the
// number 123; its "null" not NULL).
var fidelityText = map[int][]string{
	1: {"NULL", "9007199254740993"},
	2: {"-9007199254740993"},
	3: {`"null"`},
	4: {`"00123"`, "9007199254740991"},
	5: {`"{\"a\":1}"`},
	6: {`"12"`},
}

// insertStmts renders the rows for an engine: blob is how a hex byte
// string is written there.
func insertStmts(blob func(hex string) string) []string {
	var out []string
	for _, r := range fidelityRows {
		vals := make([]string, len(r))
		for i, v := range r {
			switch {
			case v == "NULL":
				vals[i] = v
			case i == 5 || i == 6:
				vals[i] = "'" + v + "'"
			case i == 7:
				vals[i] = blob(v)
			default:
				vals[i] = v
			}
		}
		out = append(out, "INSERT INTO v VALUES ("+strings.Join(vals, ", ")+")")
	}
	return out
}

func execSQL(t *testing.T, driver, dsn string, stmts ...string) {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %s: %v", driver, s, err)
		}
	}
}

func fidelitySQLite(t *testing.T, dir string) string {
	p := filepath.Join(dir, "v.sqlite")
	execSQL(t, "sqlite", p, append([]string{
		`CREATE TABLE v (id INTEGER PRIMARY KEY, name TEXT, big BIGINT, amount NUMERIC(20,2), f DOUBLE, day DATE, ts TIMESTAMP, b BLOB)`,
	}, insertStmts(func(h string) string { return "x'" + h + "'" })...)...)
	return p
}

func fidelityDuckDB(t *testing.T, dir string) string {
	p := filepath.Join(dir, "v.duckdb")
	execSQL(t, "duckdb", p, append([]string{
		`CREATE TABLE v (id INTEGER PRIMARY KEY, name TEXT, big BIGINT, amount DECIMAL(20,2), f DOUBLE, day DATE, ts TIMESTAMP, b BLOB)`,
	}, insertStmts(func(h string) string { return "unhex('" + h + "')" })...)...)
	return p
}

// fidelityPostgres creates a database with table v and a read-only role,
// both dropped with the test, and returns the role's DSN; "" when
// NL2SQL_TEST_PG_DSN is unset (a failure when CI is set).
func fidelityPostgres(t *testing.T) string {
	super := os.Getenv("NL2SQL_TEST_PG_DSN")
	if super == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but NL2SQL_TEST_PG_DSN is not")
		}
		t.Log("NL2SQL_TEST_PG_DSN is not set: PostgreSQL is left out")
		return ""
	}
	b := make([]byte, 6)
	rand.Read(b)
	suffix := hex.EncodeToString(b)
	db, role, pw := "nl2sql_fid_"+suffix, "nl2sql_fid_ro_"+suffix, "pw_"+suffix
	ctx := context.Background()
	pgRun := func(dsn string, stmts ...string) {
		t.Helper()
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer c.Close(ctx)
		for _, s := range stmts {
			if _, err := c.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	pgRun(super, "CREATE DATABASE "+db, "CREATE ROLE "+role+" LOGIN PASSWORD '"+pw+"'")
	t.Cleanup(func() {
		pgRun(super, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)", "DROP ROLE IF EXISTS "+role)
	})
	with := func(user, password string) string {
		if u, err := url.Parse(super); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
			if user != "" {
				u.User = url.UserPassword(user, password)
			}
			u.Path = "/" + db
			return u.String()
		}
		s := super + " dbname=" + db
		if user != "" {
			s += " user=" + user + " password=" + password
		}
		return s
	}
	pgRun(with("", ""), append(append([]string{
		`CREATE TABLE v (id INTEGER PRIMARY KEY, name TEXT, big BIGINT, amount NUMERIC(20,2), f DOUBLE PRECISION, day DATE, ts TIMESTAMP, b BYTEA)`,
	}, insertStmts(func(h string) string { return `'\x` + h + `'::bytea` })...),
		"GRANT USAGE ON SCHEMA public TO "+role, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+role)...)
	return with(role, pw)
}

// fidelityPlan selects every column of v ordered by id.
func fidelityPlan() string {
	var sel []string
	for _, c := range fidelityCols {
		sel = append(sel, fmt.Sprintf(`{"expr":{"kind":"column","table":"t","column":%q},"alias":%q}`, c, c))
	}
	return `{"select":[` + strings.Join(sel, ",") + `],"from":[{"table":"v","alias":"t"}],` +
		`"order_by":[{"expr":{"kind":"column","table":"t","column":"id"},"direction":"asc"}]}`
}

// fidelityIntent is the sub-query intent for a datasource.
func fidelityIntent(ds string) string { return "Every value of table v in " + ds }

// writeFidelityRecordings writes a planner recording per datasource: the
// intent's plan is fidelityPlan.
func writeFidelityRecordings(t *testing.T, dir string, dss []string) {
	for _, ds := range dss {
		ans := `{"reasoning":"Read every column of v.","plan":` + fidelityPlan() + `}`
		rec := llm.Recording{Step: "plan", Datasource: ds, Question: fidelityIntent(ds), Answer: json.RawMessage(ans)}
		b, _ := json.MarshalIndent(rec, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, llm.FileName("plan", ds, rec.Question, 0)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rowsJSON is each row of a result's JSON rows, marshalled again.
func rowsJSON(t *testing.T, v any) ([]string, []string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Columns []string          `json:"columns"`
		Rows    []json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	rows := make([]string, len(out.Rows))
	for i, r := range out.Rows {
		rows[i] = string(r)
	}
	return out.Columns, rows
}

func compareRows(t *testing.T, where string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d:\n%s", where, len(got), len(want), strings.Join(got, "\n"))
		return
	}
	for i := range want {
		if !jsonEqualCells(t, got[i], want[i]) {
			t.Errorf("%s row %d:\n got %s\nwant %s", where, i+1, got[i], want[i])
		}
	}
}

// jsonEqualCells compares two JSON arrays cell by cell, numbers by their
// exact text (so 0.1 and "0.1" differ, and 1e-7 equals 1e-07).
func jsonEqualCells(t *testing.T, got, want string) bool {
	var g, w []json.RawMessage
	if json.Unmarshal([]byte(got), &g) != nil || json.Unmarshal([]byte(want), &w) != nil || len(g) != len(w) {
		return false
	}
	for i := range w {
		if string(g[i]) == string(w[i]) {
			continue
		}
		var gf, wf float64
		if json.Unmarshal(g[i], &gf) == nil && json.Unmarshal(w[i], &wf) == nil && g[i][0] != '"' && w[i][0] != '"' && gf == wf {
			continue
		}
		return false
	}
	return true
}

func TestValueFidelityEndToEnd(t *testing.T) {
	dir := t.TempDir()
	sqlitePath := fidelitySQLite(t, dir)
	duckPath := fidelityDuckDB(t, dir)
	pgDSN := fidelityPostgres(t)

	engines := []struct {
		id, engine, where string
		want              []string
	}{
		{"lite", "sqlite", fmt.Sprintf("path: %q", sqlitePath), fidelityExpectedSQLite},
		{"duck", "duckdb", fmt.Sprintf("path: %q", duckPath), fidelityExpected},
	}
	if pgDSN != "" {
		engines = append(engines, struct {
			id, engine, where string
			want              []string
		}{"pg", "postgres", fmt.Sprintf("dsn: %q", pgDSN), fidelityExpected})
	}
	var ids []string
	var dsLines strings.Builder
	for _, e := range engines {
		ids = append(ids, e.id)
		fmt.Fprintf(&dsLines, "  - {id: %s, engine: %s, %s}\n", e.id, e.engine, e.where)
	}
	recDir := filepath.Join(dir, "recordings")
	if err := os.Mkdir(recDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFidelityRecordings(t, recDir, ids)
	cfg := fmt.Sprintf("storage: {path: %q}\ndatasources:\n%sllm:\n  default: {provider: replay, recordings: %q}\n",
		filepath.Join(dir, "state"), dsLines.String(), recDir)
	cfgPath := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := Open(cfgPath, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ctx := context.Background()

	c, err := client.NewInProcessClient(mcp.NewServer(a.Engine, "test", logger))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })

	for _, e := range engines {
		t.Run(e.engine, func(t *testing.T) {
			// the Result JSON (what ask --json and the HTTP API write)
			res, err := a.Engine.RunPlan(ctx, e.id, []byte(fidelityPlan()))
			if err != nil {
				t.Fatalf("RunPlan: %v", err)
			}
			cols, rows := rowsJSON(t, res)
			if strings.Join(cols, ",") != strings.Join(fidelityCols, ",") {
				t.Fatalf("columns %v", cols)
			}
			compareRows(t, e.engine+" Result JSON", rows, e.want)

			// MCP run_plan structured content, through a JSON round trip as a
			// client would receive it
			var req mcpgo.CallToolRequest
			req.Params.Name = "run_plan"
			// binary base64: the exact bytes (the default shows placeholders,
			// tools/budget_test.go)
			req.Params.Arguments = map[string]any{"datasource": e.id, "plan": json.RawMessage(fidelityPlan()), "binary": "base64"}
			out, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if out.IsError {
				t.Fatalf("run_plan error: %+v", out.Content)
			}
			wire, _ := json.Marshal(out)
			var back mcpgo.CallToolResult
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			_, mrows := rowsJSON(t, back.StructuredContent)
			compareRows(t, e.engine+" MCP run_plan structuredContent", mrows, e.want)

			// the text rendering: NULL for null, text as stored
			text := tools.ResultText(res)
			lines := strings.Split(text, "\n")
			for id, cells := range fidelityText {
				var line string
				for _, l := range lines {
					if f := strings.Fields(l); len(f) > 0 && f[0] == fmt.Sprint(id) {
						line = l
					}
				}
				for _, want := range cells {
					if !strings.Contains(" "+line+" ", " "+want+" ") {
						t.Errorf("%s text row %d lacks %q: %q", e.engine, id, want, line)
					}
				}
			}
			if lines2 := strings.Fields(strings.Join(lines, " ")); !contains(lines2, "NULL") {
				t.Errorf("%s text shows no NULL:\n%s", e.engine, text)
			}
			// row 2's name is "": it must not render as NULL
			for _, l := range lines {
				if f := strings.Fields(l); len(f) > 1 && f[0] == "2" && f[1] == "NULL" {
					t.Errorf("%s text renders \"\" as NULL: %q", e.engine, l)
				}
			}
		})
	}

	// Through DuckDB combination: one sub-query per engine, unioned with a
	// label column. Every row keeps its engine's encoding.
	t.Run("combination", func(t *testing.T) {
		// an expected schema may not name "blob" (decompositions carry no
		// bytes type), so b travels as its base64 text
		types := []string{"integer", "text", "integer", "decimal", "float", "date", "timestamp", "text"}
		var subs, members []string
		for _, id := range ids {
			var schema []string
			for i, c := range fidelityCols {
				schema = append(schema, fmt.Sprintf(`{"name":%q,"type":%q}`, c, types[i]))
			}
			subs = append(subs, fmt.Sprintf(`{"ref":%q,"datasource":%q,"intent":%q,"expected_schema":[%s]}`,
				"r_"+id, id, fidelityIntent(id), strings.Join(schema, ",")))
			members = append(members, fmt.Sprintf(`{"ref":%q,"role":"member"}`, "r_"+id))
		}
		doc := `{"reasoning":"Stack every engine's values.","sub_queries":[` + strings.Join(subs, ",") +
			`],"combine":[{"name":"all_values","op":"union","inputs":[` + strings.Join(members, ",") +
			`],"keys":[],"join_type":null,"label_column":"src"}],"post":null}`
		res, err := a.Engine.RunDecomposition(ctx, "Every value of table v on every engine", []byte(doc))
		if err != nil {
			t.Fatalf("RunDecomposition: %v", err)
		}
		for _, sq := range res.SubQueries {
			if sq.Error != "" {
				t.Errorf("sub-query %s: %s", sq.ID, sq.Error)
			}
		}
		if len(res.Warnings) > 0 {
			t.Errorf("warnings: %q", res.Warnings)
		}
		cols, rows := rowsJSON(t, res)
		if strings.Join(cols, ",") != "src,"+strings.Join(fidelityCols, ",") {
			t.Fatalf("combined columns %v", cols)
		}
		// group the combined rows by src, drop the label, order by id
		bySrc := map[string][]string{}
		for _, r := range rows {
			var cells []json.RawMessage
			if err := json.Unmarshal([]byte(r), &cells); err != nil {
				t.Fatal(err)
			}
			var src string
			json.Unmarshal(cells[0], &src)
			rest, _ := json.Marshal(cells[1:])
			bySrc[src] = append(bySrc[src], string(rest))
		}
		for _, e := range engines {
			got := bySrc["r_"+e.id]
			sort.Slice(got, func(i, j int) bool { return idOf(got[i]) < idOf(got[j]) })
			compareRows(t, e.engine+" through DuckDB combination", got, e.want)
		}
		// the MCP structured content of the combined result says the same
		_, mrows := rowsJSON(t, res)
		if strings.Join(mrows, "\n") != strings.Join(rows, "\n") {
			t.Errorf("combined rows differ when marshalled again")
		}
		text := tools.ResultText(res)
		if !strings.Contains(text, "NULL") || !strings.Contains(text, "00123") || !strings.Contains(text, "9007199254740993") {
			t.Errorf("combined text rendering:\n%s", text)
		}
	})
}

func idOf(row string) int {
	var cells []any
	json.Unmarshal([]byte(row), &cells)
	if len(cells) == 0 {
		return -1
	}
	f, _ := cells[0].(float64)
	return int(f)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
