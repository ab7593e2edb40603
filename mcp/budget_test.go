package mcp

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite" // the writable "sqlite" driver, to build test databases

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/tools"
)

// budgetFixture is a config over databases made for the budget tests:
// big (wide: 1,000 rows × 24 columns; blobs: 8 rows of 20 KB blobs;
// secret: a table the local user's role denies), wide (60 tables of 24
// columns) and bare (big's tables without secret, for the
// hidden-equals-missing comparisons).
type budgetFixture struct {
	dir, big, wide, bare string
	blobs                [][]byte
}

func exec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func newBudgetFixture(t *testing.T) *budgetFixture {
	t.Helper()
	f := &budgetFixture{dir: t.TempDir()}
	f.big, f.wide, f.bare = filepath.Join(f.dir, "big.sqlite"), filepath.Join(f.dir, "wide.sqlite"), filepath.Join(f.dir, "bare.sqlite")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range []string{f.big, f.bare} {
		db, err := sql.Open("sqlite", p)
		if err != nil {
			t.Fatal(err)
		}
		cols := []string{"id INTEGER PRIMARY KEY"}
		for c := 1; c < 24; c++ {
			if c%3 == 0 {
				cols = append(cols, fmt.Sprintf("amount_%02d REAL", c))
			} else {
				cols = append(cols, fmt.Sprintf("label_%02d TEXT", c))
			}
		}
		exec(t, db, "CREATE TABLE wide ("+strings.Join(cols, ", ")+")")
		exec(t, db, "BEGIN")
		for r := 1; r <= 1000; r++ {
			vals := []any{r}
			for c := 1; c < 24; c++ {
				if c%3 == 0 {
					vals = append(vals, float64(r*c)/7)
				} else {
					vals = append(vals, fmt.Sprintf("item-%04d-%02d", r, c))
				}
			}
			exec(t, db, "INSERT INTO wide VALUES (?"+strings.Repeat(", ?", 23)+")", vals...)
		}
		exec(t, db, "COMMIT")
		exec(t, db, "CREATE TABLE blobs (id INTEGER PRIMARY KEY, name TEXT, payload BLOB)")
		for r := 1; r <= 8; r++ {
			b := make([]byte, 20*1024)
			for i := range b {
				b[i] = byte(rng.UintN(256))
			}
			if p == f.big {
				f.blobs = append(f.blobs, b)
			}
			exec(t, db, "INSERT INTO blobs VALUES (?, ?, ?)", r, fmt.Sprintf("file-%d.bin", r), b)
		}
		if p == f.big {
			exec(t, db, "CREATE TABLE secret (id INTEGER PRIMARY KEY, salary REAL)")
		}
		db.Close()
	}
	db, err := sql.Open("sqlite", f.wide)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		cols := []string{"id INTEGER PRIMARY KEY", "name TEXT NOT NULL"}
		for c := 2; c < 24; c++ {
			cols = append(cols, fmt.Sprintf("attribute_%02d TEXT", c))
		}
		exec(t, db, fmt.Sprintf("CREATE TABLE t%02d (%s)", i, strings.Join(cols, ", ")))
		for r := 0; r < 3; r++ {
			vals := []string{fmt.Sprint(r), fmt.Sprintf("'row %d of t%02d'", r, i)}
			for c := 2; c < 24; c++ {
				vals = append(vals, fmt.Sprintf("'value %d-%d of table %02d'", r, c, i))
			}
			exec(t, db, fmt.Sprintf("INSERT INTO t%02d VALUES (%s)", i, strings.Join(vals, ", ")))
		}
	}
	db.Close()
	return f
}

// client serves a config over the fixture: datasource big (or bare, which
// lacks the secret table) alone, or with wide; extra is appended to the
// YAML.
func (f *budgetFixture) client(t *testing.T, name, path string, withWide bool, extra string) *client.Client {
	t.Helper()
	demo, _ := filepath.Abs(filepath.Join("..", "examples", "chinook"))
	allow := "[big]"
	ds := "  - {id: big, engine: sqlite, path: " + path + "}\n"
	if withWide {
		ds += "  - {id: wide, engine: sqlite, path: " + f.wide + "}\n"
		allow = "[big, wide]"
	}
	yaml := "storage: {path: " + filepath.Join(f.dir, name+"-state") + "}\ndatasources:\n" + ds +
		"llm:\n  default: {provider: replay, recordings: " + filepath.Join(demo, "recordings") + "}\n" +
		"roles:\n  analyst: {allow: " + allow + ", deny: [big.main.secret]}\n" +
		"users:\n  - {name: ana, roles: [analyst]}\nlocal_user: ana\n" + extra
	cfg := filepath.Join(f.dir, name+".yaml")
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return configClient(t, cfg)
}

// sentTokens counts a result as it goes on the wire, with the project's
// tokenizer.
func sentTokens(t *testing.T, v any) int {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return schemactx.ContextTokens(string(b))
}

func structured(t *testing.T, res *mcpgo.CallToolResult, v any) {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func allColumnsPlan(table string, cols ...string) map[string]any {
	sel := []any{}
	for _, c := range cols {
		sel = append(sel, map[string]any{"expr": map[string]any{"kind": "column", "column": c}, "alias": c})
	}
	return map[string]any{"select": sel, "from": []any{map[string]any{"table": table, "alias": "t"}},
		"order_by": []any{map[string]any{"expr": map[string]any{"kind": "column", "column": "id"}}}}
}

func wideColumns() []string {
	cols := []string{"id"}
	for c := 1; c < 24; c++ {
		if c%3 == 0 {
			cols = append(cols, fmt.Sprintf("amount_%02d", c))
		} else {
			cols = append(cols, fmt.Sprintf("label_%02d", c))
		}
	}
	return cols
}

type rowsOut struct {
	Rows            [][]any `json:"rows"`
	RowCount        int     `json:"row_count"`
	Truncated       bool    `json:"truncated"`
	TruncatedReason string  `json:"truncated_reason"`
	QueryRowCount   int     `json:"query_row_count"`
}

// A result of 1,000 rows × 24 columns is about 100k tokens: a host that
// caps results at 25k would drop it whole. The tool keeps the leading
// rows that fit and says so in both parts.
func TestRunPlanFitsTokenBudget(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "big", f.big, false, "")
	// the datasource is the only one the caller sees: no datasource argument
	res := callTool(t, c, "run_plan", map[string]any{"plan": allColumnsPlan("wide", wideColumns()...)})
	if res.IsError {
		t.Fatalf("run_plan: %s", text(res))
	}
	n := sentTokens(t, res)
	t.Logf("run_plan 1,000 rows × 24 columns: %d tokens sent (budget %d)", n, 20000)
	if n > 20000 {
		t.Errorf("result is %d tokens, over the 20,000 budget", n)
	}
	var out rowsOut
	structured(t, res, &out)
	if !out.Truncated || out.TruncatedReason != "token_budget" || out.QueryRowCount != 1000 || out.RowCount != len(out.Rows) || len(out.Rows) == 0 || len(out.Rows) >= 1000 {
		t.Fatalf("truncation fields: truncated %v reason %q query_row_count %d row_count %d rows %d", out.Truncated, out.TruncatedReason, out.QueryRowCount, out.RowCount, len(out.Rows))
	}
	for i, r := range out.Rows { // the leading rows, in order
		if r[0] != float64(i+1) {
			t.Fatalf("row %d has id %v", i, r[0])
		}
	}
	// the budget is not wasted: the rows kept fill most of it
	if n < 20000*8/10 {
		t.Errorf("only %d of 20,000 tokens used", n)
	}
	want := fmt.Sprintf("holds %d of the 1000 rows the query returned", len(out.Rows))
	if tx := text(res); !strings.Contains(tx, want) {
		t.Errorf("text lacks %q:\n%s", want, tx[len(tx)-400:])
	}

	// a smaller configured budget cuts harder
	small := f.client(t, "small", f.big, false, "results: {token_budget: 5000}\n")
	res = callTool(t, small, "run_plan", map[string]any{"plan": allColumnsPlan("wide", wideColumns()...)})
	var cut rowsOut
	structured(t, res, &cut)
	if n := sentTokens(t, res); n > 5000 || len(cut.Rows) >= len(out.Rows) || !cut.Truncated {
		t.Errorf("token_budget 5000: %d tokens, %d rows", n, len(cut.Rows))
	}
}

// A blob column is shown as its size and a short hash, not as base64: 8
// rows of 20 KB blobs would be over 200k characters. binary "base64" asks
// for the exact bytes (and is cut by the budget like any rows).
func TestBinaryPlaceholders(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "big", f.big, false, "")
	plan := allColumnsPlan("blobs", "id", "name", "payload")
	res := callTool(t, c, "run_plan", map[string]any{"datasource": "big", "plan": plan})
	if res.IsError {
		t.Fatalf("run_plan: %s", text(res))
	}
	var out rowsOut
	structured(t, res, &out)
	if len(out.Rows) != 8 || out.Truncated {
		t.Fatalf("rows %d truncated %v", len(out.Rows), out.Truncated)
	}
	for i, r := range out.Rows {
		h := sha256.Sum256(f.blobs[i])
		want := fmt.Sprintf("<binary 20,480 bytes sha256:%s>", hex.EncodeToString(h[:4]))
		if r[2] != want {
			t.Errorf("row %d payload %v, want %s", i, r[2], want)
		}
	}
	b, _ := json.Marshal(res)
	t.Logf("run_plan blobs (8 × 20 KB), placeholders: %d characters, %d tokens", len(b), sentTokens(t, res))

	// base64 is the exact bytes, and still within the budget: one 20 KB blob
	// alone is about as large as the default budget, so a larger one is
	// configured to see rows
	for _, c := range []struct {
		budget  int
		minRows int
	}{{20000, 0}, {200000, 8}} {
		cl := f.client(t, fmt.Sprintf("raw%d", c.budget), f.big, false, fmt.Sprintf("results: {token_budget: %d}\n", c.budget))
		raw := callTool(t, cl, "run_plan", map[string]any{"datasource": "big", "plan": plan, "binary": "base64"})
		var rawOut rowsOut
		structured(t, raw, &rawOut)
		n := sentTokens(t, raw)
		b, _ := json.Marshal(raw)
		t.Logf("run_plan blobs, binary base64, budget %d: %d rows, %d characters, %d tokens", c.budget, len(rawOut.Rows), len(b), n)
		if raw.IsError || len(rawOut.Rows) < c.minRows || n > c.budget || (len(rawOut.Rows) < 8 && rawOut.TruncatedReason != "token_budget") {
			t.Fatalf("base64 at budget %d: %d rows, %d tokens: %.300s", c.budget, len(rawOut.Rows), n, text(raw))
		}
		for i, r := range rawOut.Rows {
			if r[2] != base64.StdEncoding.EncodeToString(f.blobs[i]) {
				t.Errorf("base64 row %d is not the exact bytes", i)
			}
		}
	}
	if bad := callTool(t, c, "run_plan", map[string]any{"plan": plan, "binary": "hex"}); !bad.IsError || !strings.Contains(text(bad), "INVALID_REQUEST") {
		t.Errorf("binary hex: %s", text(bad))
	}
}

// describe_schema pages by the budget: 60 tables of 24 columns do not fit
// one result; every page fits, the pages cover each table once, and a
// cursor names a table, so the same cursor gives the same page.
func TestDescribeSchemaPagesByBudget(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "wide", f.big, true, "")
	var seen []string
	cursor, pages := "", 0
	var second *mcpgo.CallToolResult
	for {
		args := map[string]any{"datasource": "wide"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := callTool(t, c, "describe_schema", args)
		if res.IsError {
			t.Fatalf("describe_schema: %s", text(res))
		}
		n := sentTokens(t, res)
		var out struct {
			Total  int    `json:"total_tables"`
			Next   string `json:"next_cursor"`
			Tables []struct {
				Name string `json:"name"`
			} `json:"tables"`
		}
		structured(t, res, &out)
		t.Logf("describe_schema page %d: %d tables, %d tokens", pages+1, len(out.Tables), n)
		if n > 20000 || out.Total != 60 || len(out.Tables) == 0 {
			t.Fatalf("page %d: %d tokens, total %d, %d tables", pages+1, n, out.Total, len(out.Tables))
		}
		for _, tb := range out.Tables {
			seen = append(seen, tb.Name)
		}
		if pages == 1 {
			second = res
		}
		pages++
		if out.Next == "" {
			break
		}
		if pages == 1 {
			again := callTool(t, c, "describe_schema", map[string]any{"datasource": "wide", "cursor": out.Next})
			defer func(cur string, again *mcpgo.CallToolResult) {
				a, _ := json.Marshal(again)
				b, _ := json.Marshal(second)
				if string(a) != string(b) {
					t.Errorf("cursor %s gave two different pages", cur)
				}
			}(out.Next, again)
		}
		cursor = out.Next
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
	}
	if pages < 2 || len(seen) != 60 {
		t.Fatalf("%d pages, %d tables", pages, len(seen))
	}
	for i, name := range seen {
		if name != fmt.Sprintf("t%02d", i) {
			t.Fatalf("table %d is %s", i, name)
		}
	}
	if res := callTool(t, c, "describe_schema", map[string]any{"datasource": "wide", "cursor": "b2Zmc2V0OjI1"}); !res.IsError {
		t.Error("an offset cursor of the old form was accepted")
	}
}

// A table the caller may not see is answered exactly like one that does
// not exist, byte for byte, by describe_schema and check_plan, and the
// "did you mean" suggestions come only from visible tables.
func TestHiddenTableIsMissing(t *testing.T) {
	f := newBudgetFixture(t)
	hidden := f.client(t, "hidden", f.big, false, "")
	missing := f.client(t, "missing", f.bare, false, "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"describe_schema", map[string]any{"datasource": "big", "table": "secret"}},
		{"describe_schema", map[string]any{"datasource": "big", "table": "secrets"}},
		{"describe_schema", map[string]any{"datasource": "big", "table": "main.secret"}},
		{"describe_schema", map[string]any{"datasource": "big", "tables": []string{"wide", "secret"}}},
		{"check_plan", map[string]any{"plan": allColumnsPlan("secret", "id")}},
		{"run_plan", map[string]any{"plan": allColumnsPlan("secret", "id")}},
	} {
		a, b := callTool(t, hidden, c.tool, c.args), callTool(t, missing, c.tool, c.args)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s %v: hidden and missing differ:\n%s\n%s", c.tool, c.args, ja, jb)
		}
		if strings.Contains(string(ja), "secret\"?") || strings.Contains(string(ja), `\"secret\"?`) {
			t.Errorf("%s: suggests the hidden table: %s", c.tool, ja)
		}
	}
	res := callTool(t, hidden, "describe_schema", map[string]any{"datasource": "big", "table": "wdie"})
	var e tools.ErrorOutput
	structured(t, res, &e)
	if !res.IsError || e.Error.Code != "TABLE_NOT_FOUND" || !strings.Contains(e.Error.Message, `did you mean "wide"?`) {
		t.Errorf("wdie: %s", text(res))
	}
}

// A host that asks for several tables and misspells one still gets the
// others described, and learns which name matched nothing and what it may
// have meant; only a request where no name matches is an error.
func TestDescribeSchemaKeepsTheTablesFoundBesideAMisspeltOne(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "big", f.bare, false, "")
	res := callTool(t, c, "describe_schema", map[string]any{"datasource": "big", "tables": []string{"blobs", "wdie"}})
	var out tools.DescribeOutput
	structured(t, res, &out)
	if res.IsError || len(out.Tables) != 1 || out.Tables[0].Name != "blobs" {
		t.Fatalf("the table found was not described: %s", text(res))
	}
	if len(out.NotFound) != 1 || out.NotFound[0].Name != "wdie" || !strings.Contains(out.NotFound[0].Message, `did you mean "wide"?`) {
		t.Errorf("not_found: %+v", out.NotFound)
	}
	if !strings.Contains(text(res), `did you mean "wide"?`) || !strings.Contains(text(res), "payload") {
		t.Errorf("the text names neither the miss nor the table found:\n%s", text(res))
	}
	res = callTool(t, c, "describe_schema", map[string]any{"datasource": "big", "tables": []string{"wdie", "blobz"}})
	var e tools.ErrorOutput
	structured(t, res, &e)
	if !res.IsError || e.Error.Code != "TABLE_NOT_FOUND" {
		t.Errorf("no name matched, yet: %s", text(res))
	}
}

// check_plan over MCP: a valid plan gives its SQL, columns and types; an
// invalid one is a successful check with typed issues.
func TestCheckPlanTool(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "big", f.big, false, "")
	res := callTool(t, c, "check_plan", map[string]any{"plan": allColumnsPlan("blobs", "id", "payload")})
	var out struct {
		Valid   bool     `json:"valid"`
		SQL     string   `json:"sql"`
		Columns []string `json:"columns"`
		Types   []string `json:"column_types"`
		Issues  []any    `json:"issues"`
	}
	structured(t, res, &out)
	if res.IsError || !out.Valid || !strings.HasPrefix(out.SQL, "SELECT") || strings.Join(out.Types, ",") != "integer,blob" || len(out.Issues) != 0 {
		t.Fatalf("check_plan: %+v %s", out, text(res))
	}
	bad := allColumnsPlan("blobs", "id", "nope")
	res = callTool(t, c, "check_plan", map[string]any{"plan": bad})
	var inv struct {
		Valid  bool `json:"valid"`
		Issues []struct {
			Code, Path, Message string
		} `json:"issues"`
	}
	structured(t, res, &inv)
	if res.IsError || inv.Valid || len(inv.Issues) == 0 || inv.Issues[0].Code != "COLUMN_NOT_FOUND" || inv.Issues[0].Path == "" {
		t.Fatalf("invalid plan: %+v %s", inv, text(res))
	}
	// the check says which datasource it was checked against, valid or not
	res = callTool(t, c, "check_plan", map[string]any{"plan": bad, "datasource": "big"})
	var named struct {
		Datasource string `json:"datasource"`
	}
	structured(t, res, &named)
	if named.Datasource != "big" {
		t.Errorf("an invalid plan checked against big says datasource %q", named.Datasource)
	}
}

// Tool errors carry their fields as structured content, not only in the
// text: the code, the message, the hint, retryable and each plan issue.
func TestErrorResultsAreStructured(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "big", f.big, false, "")
	res := callTool(t, c, "run_plan", map[string]any{"plan": allColumnsPlan("blobs", "id", "nope")})
	var e tools.ErrorOutput
	structured(t, res, &e)
	if !res.IsError || e.Error.Code != "PLAN_INVALID" || e.Error.Hint == "" || len(e.Error.Issues) == 0 || e.Error.Issues[0].Path == "" {
		t.Fatalf("run_plan error: %+v", res.StructuredContent)
	}
	res = callTool(t, c, "describe_schema", map[string]any{"datasource": "nope"})
	structured(t, res, &e)
	if !res.IsError || e.Error.Code != "DATASOURCE_NOT_FOUND" || e.Error.Message == "" {
		t.Fatalf("describe_schema error: %+v", res.StructuredContent)
	}
	res = callTool(t, c, "run_plan", map[string]any{"plan": allColumnsPlan("blobs", "id"), "datasrc": "x"})
	structured(t, res, &e)
	if !res.IsError || e.Error.Code != "INVALID_REQUEST" || !strings.Contains(e.Error.Message, "datasrc") {
		t.Fatalf("bad argument: %+v", res.StructuredContent)
	}
}

// The schema resource fits the budget too: too large to send whole, it is
// an index of page resources that together hold every table.
func TestSchemaResourceFitsBudget(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "wide", f.big, true, "")
	res, err := c.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://wide/schema"}})
	if err != nil {
		t.Fatal(err)
	}
	body := res.Contents[0].(mcpgo.TextResourceContents).Text
	n := sentTokens(t, res)
	var out tools.SchemaIndex
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	inPages := 0
	for _, p := range out.Pages {
		inPages += p.Tables
	}
	t.Logf("schema resource of 60 wide tables: an index of %d pages, %d tokens", len(out.Pages), n)
	if n > 20000 || !out.Paged || out.TotalTables != 60 || len(out.Pages) < 2 || inPages != 60 || out.PagesTruncated {
		t.Errorf("resource: %d tokens, %+v", n, out)
	}
}

// TestBudgetFigures prints what the budget changes (go test ./mcp -run
// TestBudgetFigures -v): each result as the tools sent it before (the
// engine result with its text, unbudgeted; describe_schema's fixed page
// of 25 tables) and as they send it now, in characters of JSON and
// o200k_base tokens.
func TestBudgetFigures(t *testing.T) {
	f := newBudgetFixture(t)
	c := f.client(t, "figures", f.big, true, "")
	a, err := app.Open(filepath.Join(f.dir, "figures.yaml"), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	size := func(v any) (int, int) {
		b, _ := json.Marshal(v)
		return len(b), schemactx.ContextTokens(string(b))
	}
	for _, q := range []struct {
		name string
		plan map[string]any
	}{
		{"run_plan wide (1,000 rows × 24 columns)", allColumnsPlan("wide", wideColumns()...)},
		{"run_plan blobs (8 rows, 20 KB blobs)", allColumnsPlan("blobs", "id", "name", "payload")},
	} {
		doc, _ := json.Marshal(q.plan)
		res, err := a.Engine.RunPlan(ctx, "big", doc)
		if err != nil {
			t.Fatal(err)
		}
		bc, bt := size(mcpgo.NewToolResultStructured(res, tools.ResultText(res)))
		now := callTool(t, c, "run_plan", map[string]any{"datasource": "big", "plan": q.plan})
		ac, at := size(now)
		var out rowsOut
		structured(t, now, &out)
		t.Logf("%s: before %d characters, %d tokens, %d rows; after %d characters, %d tokens, %d rows", q.name, bc, bt, len(res.Rows), ac, at, len(out.Rows))
	}
	snap, err := a.Engine.VisibleSnapshot(ctx, "wide")
	if err != nil {
		t.Fatal(err)
	}
	page := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: snap.Tables[:25]}
	bc, bt := size(mcpgo.NewToolResultStructured(tools.DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: 60, Tables: page.Tables, NextCursor: "x"}, tools.SnapshotText(page)))
	wc, wt := size(mcpgo.NewToolResultStructured(tools.DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: 60, Tables: snap.Tables}, tools.SnapshotText(snap)))
	first := callTool(t, c, "describe_schema", map[string]any{"datasource": "wide"})
	ac, at := size(first)
	var out struct {
		Tables []any `json:"tables"`
	}
	structured(t, first, &out)
	t.Logf("describe_schema wide (60 tables × 24 columns): all 60 in one result %d characters, %d tokens; before, a fixed page of 25 tables %d characters, %d tokens; after, the first page %d tables, %d characters, %d tokens", wc, wt, bc, bt, len(out.Tables), ac, at)
}
