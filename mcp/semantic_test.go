package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// The Chinook demo with its semantic layer: the file is a resource, and
// describe_schema and search_schema show its descriptions, synonyms and
// definitions.
func TestSemanticResourceAndTools(t *testing.T) {
	dir := filepath.Join("..", "examples", "chinook", "semantic")
	c := configClient(t, filepath.Join(dir, "nl2sql.yaml"))
	ctx := context.Background()
	list, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range list.Resources {
		found = found || r.URI == "nl2sql://chinook/semantic"
	}
	if !found {
		t.Errorf("no semantic resource among %+v", list.Resources)
	}
	rr, err := c.ReadResource(ctx, mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://chinook/semantic"}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "semantic.yaml"))
	if tc, ok := rr.Contents[0].(mcpgo.TextResourceContents); !ok || tc.Text != string(want) || tc.MIMEType != "application/yaml" {
		t.Errorf("semantic resource: %+v", rr.Contents)
	}

	call := func(name string, args map[string]any) string {
		res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: name, Arguments: args}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	desc := call("describe_schema", map[string]any{"datasource": "chinook", "table": "Invoice"})
	for _, w := range []string{`"synonyms":["market","sales region"]`, `"name":"order_count"`, `"name":"big_order"`, `Also called: order, purchase, sale`} {
		if !strings.Contains(desc, w) {
			t.Errorf("describe_schema lacks %s: %s", w, desc)
		}
	}
	search := call("search_schema", map[string]any{"datasource": "chinook", "text": "net revenue by sales region"})
	for _, w := range []string{`"name":"revenue"`, `"name":"BillingCountry"`} {
		if !strings.Contains(search, w) {
			t.Errorf("search_schema lacks %s: %s", w, search)
		}
	}
	ask, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask",
		Arguments: map[string]any{"datasource": "chinook", "question": "How many big orders were there in each year?"}}})
	if err != nil || ask.IsError {
		t.Fatalf("ask: %v %+v", err, ask)
	}
	if text := ask.Content[0].(mcpgo.TextContent).Text; !strings.Contains(text, "definitions used: metric order_count, filter big_order") {
		t.Errorf("ask text does not name the definitions:\n%s", text)
	}
	// the demo without a semantic file lists no semantic resource
	plain := chinookClient(t)
	list, err = plain.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		if strings.HasSuffix(r.URI, "/semantic") {
			t.Errorf("the plain demo lists %s", r.URI)
		}
	}
}
