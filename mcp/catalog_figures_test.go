package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/bigcat"
	"github.com/nl2sql/nl2sql/tools"
)

// catalogClient serves a host-mode config (no model) over a generated
// catalog of tables × cols, as datasource "cat", plus extra datasources
// cat01.. over the same file; the local user's role denies table hidden.
func catalogClient(t *testing.T, tables, cols, extra int, yaml string) (*client.Client, string) {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "cat.sqlite")
	t0 := time.Now()
	if err := bigcat.Write(db, tables, cols); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d × %d catalog in %v", tables, cols, time.Since(t0).Round(time.Millisecond))
	ds, allow := "  - {id: cat, engine: sqlite, path: "+db+"}\n", []string{"cat"}
	for i := 1; i <= extra; i++ {
		id := fmt.Sprintf("cat%02d", i)
		ds += "  - {id: " + id + ", engine: sqlite, path: " + db + ", description: copy " + strconv.Itoa(i) + " of the catalog}\n"
		allow = append(allow, id)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n" + ds +
		"roles:\n  analyst: {allow: [" + strings.Join(allow, ", ") + "], deny: [cat.main." + bigcat.TableName(3) + "]}\n" +
		"users:\n  - {name: ana, roles: [analyst]}\nlocal_user: ana\n" + yaml
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t0 = time.Now()
	c := configClient(t, cfg)
	t.Logf("opened in %v", time.Since(t0).Round(time.Millisecond))
	return c, cfg
}

func wireSize(t *testing.T, v any) (bytes, tokens int) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return len(b), sentTokens(t, v)
}

// TestCatalogFigures measures every catalog surface on a generated
// catalog (NL2SQL_BIGCATALOG=2000 for 2,000 tables × 20 columns):
//
//	NL2SQL_BIGCATALOG=2000 go test ./mcp -run TestCatalogFigures -v
func TestCatalogFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NL2SQL_BIGCATALOG"))
	if n == 0 {
		t.Skip("set NL2SQL_BIGCATALOG=2000 to measure the catalog surfaces on 2,000 tables × 20 columns")
	}
	c, _ := catalogClient(t, n, 20, 0, "")
	ctx := context.Background()
	t0 := time.Now()
	res := callTool(t, c, "describe_schema", map[string]any{"datasource": "cat"})
	b, tk := wireSize(t, res)
	t.Logf("describe_schema first page: %d bytes, %d tokens, %v (error %v)", b, tk, time.Since(t0).Round(time.Millisecond), res.IsError)
	pages, maxB, maxT := 0, 0, 0
	for args := (map[string]any{"datasource": "cat"}); ; pages++ {
		res := callTool(t, c, "describe_schema", args)
		var p pageOf
		structured(t, res, &p)
		b, tk := wireSize(t, res)
		maxB, maxT = max(maxB, b), max(maxT, tk)
		if p.Next == "" {
			break
		}
		args = map[string]any{"datasource": "cat", "cursor": p.Next}
	}
	t.Logf("describe_schema walk: %d pages, largest %d bytes, %d tokens", pages+1, maxB, maxT)
	rr, err := c.ReadResource(ctx, mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://cat/schema"}})
	if err != nil {
		t.Fatal(err)
	}
	b, tk = wireSize(t, rr)
	t.Logf("resource nl2sql://cat/schema: %d bytes, %d tokens", b, tk)
	if pr, err := c.ReadResource(ctx, mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://cat/schema/page/1"}}); err == nil {
		b, tk = wireSize(t, pr)
		t.Logf("resource nl2sql://cat/schema/page/1: %d bytes, %d tokens", b, tk)
	}
	lr, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, tk = wireSize(t, lr)
	t.Logf("resources/list: %d resources, %d bytes, %d tokens", len(lr.Resources), b, tk)
	res = callTool(t, c, "search_schema", map[string]any{"datasource": "cat", "text": "sales order status amount region customer"})
	b, tk = wireSize(t, res)
	t.Logf("search_schema: %d bytes, %d tokens (error %v)", b, tk, res.IsError)
	res = callTool(t, c, "ask", map[string]any{"question": "total amount of sales orders by region"})
	b, tk = wireSize(t, res)
	var hp struct {
		Tokens  int      `json:"context_tokens"`
		Tables  []string `json:"context_tables"`
		Visible int      `json:"visible_tables"`
	}
	_ = json.Unmarshal(mustJSON(t, res.StructuredContent), &hp)
	t.Logf("ask (plan it yourself): %d bytes, %d tokens; schema_context %d tokens, %d of %d tables", b, tk, hp.Tokens, len(hp.Tables), hp.Visible)
	many, _ := catalogClient(t, 3, 5, 300, "")
	res = callTool(t, many, "list_datasources", map[string]any{})
	b, tk = wireSize(t, res)
	var l struct {
		Total int   `json:"total"`
		DS    []any `json:"datasources"`
	}
	structured(t, res, &l)
	t.Logf("list_datasources, 301 datasources: first page %d of %d, %d bytes, %d tokens (error %v)", len(l.DS), l.Total, b, tk, res.IsError)
}

// pageOf is the parts of a catalog page the walks check.
type pageOf struct {
	Total        int    `json:"total_tables"`
	TotalColumns int    `json:"total_columns"`
	First        int    `json:"first_table"`
	Truncated    bool   `json:"truncated"`
	Next         string `json:"next_cursor"`
	Tables       []struct {
		Name string `json:"name"`
	} `json:"tables"`
}

// walkDescribe follows describe_schema's cursors from args to the end,
// checking every page against budget, and returns the tables in order.
func walkDescribe(t *testing.T, c *client.Client, args map[string]any, budget int) ([]string, []string) {
	t.Helper()
	var seen, cursors []string
	for pages := 0; ; pages++ {
		if pages > 500 {
			t.Fatal("describe_schema's pages do not end")
		}
		res := callTool(t, c, "describe_schema", args)
		if res.IsError {
			t.Fatalf("describe_schema %v: %s", args, text(res))
		}
		if n := sentTokens(t, res); n > budget {
			t.Fatalf("describe_schema page %d: %d tokens, over the %d-token budget", pages+1, n, budget)
		}
		var p pageOf
		structured(t, res, &p)
		if p.First != len(seen)+1 || p.Truncated != (p.Next != "") {
			t.Fatalf("page %d: first_table %d after %d tables, truncated %v, next %q", pages+1, p.First, len(seen), p.Truncated, p.Next)
		}
		for _, tb := range p.Tables {
			seen = append(seen, tb.Name)
		}
		if p.Next == "" {
			return seen, cursors
		}
		cursors = append(cursors, p.Next)
		args = maps.Clone(args)
		args["cursor"] = p.Next
	}
}

func readResource(t *testing.T, c *client.Client, uri string) (string, error) {
	t.Helper()
	rr, err := c.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: uri}})
	if err != nil {
		return "", err
	}
	if n := sentTokens(t, rr); n > 1000 {
		t.Errorf("resource %s: %d tokens, over the 1000-token budget: %s", uri, n, mustJSON(t, rr))
	}
	return rr.Contents[0].(mcpgo.TextResourceContents).Text, nil
}

// On a catalog far larger than the result budget every catalog surface
// fits it, says what it holds of how much, and pages with cursors (or page
// resources) that give every visible table exactly once; the denied table
// appears on no page and in no total; a changed cursor is INVALID_CURSOR.
func TestCatalogSurfacesPageWithinBudget(t *testing.T) {
	const tables, budget = 60, 1000
	c, _ := catalogClient(t, tables, 20, 0, "results: {token_budget: 1000}\n")
	hidden := bigcat.TableName(3)
	var want []string
	for i := range tables {
		if i != 3 {
			want = append(want, bigcat.TableName(i))
		}
	}
	slices.Sort(want) // the snapshot's order
	check := func(what string, got []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d tables, want each of the %d visible exactly once in order", what, len(got), len(want))
		}
		if slices.Contains(got, hidden) {
			t.Errorf("%s shows the denied table", what)
		}
	}
	seen, cursors := walkDescribe(t, c, map[string]any{"datasource": "cat"}, budget)
	check("describe_schema", seen)
	if len(cursors) < 5 {
		t.Fatalf("%d tables in %d pages", tables, len(cursors)+1)
	}
	// the same cursor gives the same page, byte for byte
	a := callTool(t, c, "describe_schema", map[string]any{"datasource": "cat", "cursor": cursors[1]})
	b := callTool(t, c, "describe_schema", map[string]any{"datasource": "cat", "cursor": cursors[1]})
	if string(mustJSON(t, a)) != string(mustJSON(t, b)) {
		t.Error("one cursor gave two different pages")
	}
	var p pageOf
	structured(t, a, &p)
	if p.Total != tables-1 || p.TotalColumns != (tables-1)*20 {
		t.Errorf("totals %d tables, %d columns; want %d and %d (the denied table not counted)", p.Total, p.TotalColumns, tables-1, (tables-1)*20)
	}
	// a cursor changed by one character, made up, or from another request
	// (the changed one names another table, as an edited cursor would)
	raw, err := base64.RawURLEncoding.DecodeString(cursors[1])
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-8-2]++
	tampered := base64.RawURLEncoding.EncodeToString(raw)
	for _, bad := range []map[string]any{
		{"datasource": "cat", "cursor": string(tampered)},
		{"datasource": "cat", "cursor": "bm90IGEgY3Vyc29y"},
		{"datasource": "cat", "cursor": cursors[1], "filter": "sales"},
	} {
		res := callTool(t, c, "describe_schema", bad)
		var e tools.ErrorOutput
		structured(t, res, &e)
		if !res.IsError || e.Error.Code != "INVALID_CURSOR" || e.Error.Hint == "" {
			t.Errorf("cursor %v: %s", bad, text(res))
		}
	}
	// a filter pages as well and counts only its matches
	sales, _ := walkDescribe(t, c, map[string]any{"datasource": "cat", "filter": "sales_"}, budget)
	if len(sales) != 8 || slices.Contains(sales, hidden) {
		t.Errorf("filter sales_: %v", sales)
	}

	// the schema resource is an index of page resources; the pages chain
	// through next and hold every visible table once
	body, err := readResource(t, c, "nl2sql://cat/schema")
	if err != nil {
		t.Fatal(err)
	}
	var idx tools.SchemaIndex
	if err := json.Unmarshal([]byte(body), &idx); err != nil || !idx.Paged || idx.TotalTables != tables-1 || len(idx.Pages) == 0 {
		t.Fatalf("schema index: %v %s", err, body)
	}
	var fromPages []string
	for uri, n := idx.Pages[0].URI, 0; uri != ""; n++ {
		body, err := readResource(t, c, uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		var pg tools.SchemaPage
		if err := json.Unmarshal([]byte(body), &pg); err != nil || pg.TotalTables != tables-1 || pg.Page != n+1 {
			t.Fatalf("%s: %v %.200s", uri, err, body)
		}
		for _, tb := range pg.Tables {
			fromPages = append(fromPages, tb.Name)
		}
		uri = pg.Next
	}
	check("schema page resources", fromPages)
	if _, err := readResource(t, c, "nl2sql://cat/schema/table/main."+bigcat.TableName(7)); err != nil {
		t.Errorf("table resource: %v", err)
	}
	_, hiddenErr := readResource(t, c, "nl2sql://cat/schema/table/main."+hidden)
	_, missingErr := readResource(t, c, "nl2sql://cat/schema/table/main.nope")
	if hiddenErr == nil || missingErr == nil || strings.ReplaceAll(hiddenErr.Error(), hidden, "X") != strings.ReplaceAll(missingErr.Error(), "nope", "X") {
		t.Errorf("hidden table resource %v, missing %v", hiddenErr, missingErr)
	}
	for _, bad := range []string{"nl2sql://cat/schema/page/0", "nl2sql://cat/schema/page/999", "nl2sql://cat/schema/page/x"} {
		if _, err := readResource(t, c, bad); err == nil {
			t.Errorf("%s read", bad)
		}
	}

	// the plan-it-yourself result fits and says what it left out
	res := callTool(t, c, "ask", map[string]any{"question": "total amount of sales orders by region"})
	var hp struct {
		Kind    string   `json:"kind"`
		Omitted int      `json:"omitted_tables"`
		Note    string   `json:"omitted"`
		Tables  []string `json:"context_tables"`
	}
	structured(t, res, &hp)
	if res.IsError || sentTokens(t, res) > budget || hp.Kind != "plan_it_yourself" || hp.Omitted != tables-1-len(hp.Tables) || hp.Note == "" || slices.Contains(hp.Tables, hidden) {
		t.Errorf("ask: %d tokens, %+v %s", sentTokens(t, res), hp, text(res))
	}

	// search_schema pages within the budget too
	var ranked []string
	args := map[string]any{"datasource": "cat", "text": "sales order status amount region"}
	for pages := 0; ; pages++ {
		res := callTool(t, c, "search_schema", args)
		if res.IsError || sentTokens(t, res) > budget {
			t.Fatalf("search_schema page %d: %d tokens %s", pages+1, sentTokens(t, res), text(res))
		}
		var p pageOf
		structured(t, res, &p)
		for _, tb := range p.Tables {
			ranked = append(ranked, tb.Name)
		}
		if p.Next == "" {
			break
		}
		args = map[string]any{"datasource": "cat", "text": "sales order status amount region", "cursor": p.Next}
	}
	if len(ranked) == 0 || slices.Contains(ranked, hidden) || len(slices.Compact(slices.Clone(ranked))) != len(ranked) {
		t.Errorf("search_schema pages: %v", ranked)
	}
}

// list_datasources pages many datasources within the budget, each once.
func TestListDatasourcesPages(t *testing.T) {
	c, _ := catalogClient(t, 3, 5, 40, "results: {token_budget: 1000}\n")
	var ids []string
	args := map[string]any{}
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatal("pages do not end")
		}
		res := callTool(t, c, "list_datasources", args)
		if res.IsError || sentTokens(t, res) > 1000 {
			t.Fatalf("page %d: %d tokens %s", pages+1, sentTokens(t, res), text(res))
		}
		var out tools.DatasourceList
		structured(t, res, &out)
		if out.Total != 41 {
			t.Fatalf("total %d", out.Total)
		}
		for _, d := range out.Datasources {
			ids = append(ids, d.ID)
		}
		if out.NextCursor == "" {
			break
		}
		args = map[string]any{"cursor": out.NextCursor}
	}
	if len(ids) != 41 || !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != 41 {
		t.Errorf("datasources: %v", ids)
	}
	res := callTool(t, c, "list_datasources", map[string]any{"cursor": "x"})
	var e tools.ErrorOutput
	structured(t, res, &e)
	if e.Error.Code != "INVALID_CURSOR" {
		t.Errorf("bad cursor: %s", text(res))
	}
}

// A host that plans for itself loses the whole answer when the
// plan-it-yourself result is refused as too large: at every budget the
// config allows it fits, cutting its context rather than failing.
func TestPlanItYourselfFitsTheBudget(t *testing.T) {
	for _, budget := range []int{1000, 1200, 1500, 3000, 20000} {
		c, _ := catalogClient(t, 60, 20, 0, fmt.Sprintf("results: {token_budget: %d}\n", budget))
		for _, q := range []string{"total amount of sales orders by region", "which billing invoices had the largest discount in each region and quantity"} {
			res := callTool(t, c, "ask", map[string]any{"question": q})
			if res.IsError || sentTokens(t, res) > budget {
				t.Errorf("budget %d, %q: %d tokens: %.300s", budget, q, sentTokens(t, res), text(res))
			}
		}
	}
}
