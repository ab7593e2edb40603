package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/bigcat"
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
	rr, err := c.ReadResource(ctx, mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://cat/schema"}})
	if err != nil {
		t.Fatal(err)
	}
	b, tk = wireSize(t, rr)
	t.Logf("resource nl2sql://cat/schema: %d bytes, %d tokens", b, tk)
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
	_ = json.Unmarshal(asJSON(t, res.StructuredContent), &hp)
	t.Logf("ask (plan it yourself): %d bytes, %d tokens; schema_context %d tokens, %d of %d tables", b, tk, hp.Tokens, len(hp.Tables), hp.Visible)
}

func asJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
