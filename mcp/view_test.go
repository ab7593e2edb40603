package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/viewer"
)

// viewClient is an in-process client of the Chinook server that advertises
// MCP Apps (io.modelcontextprotocol/ui with the view MIME type) when apps.
func viewClient(t *testing.T, apps bool) *client.Client {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	c, err := client.NewInProcessClient(NewServer(a.Engine, "test", logger))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	if apps {
		init.Params.Capabilities.Extensions = map[string]any{viewer.ExtensionID: map[string]any{"mimeTypes": []any{viewer.MIMEType}}}
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func viewPlan(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "viewer", "testdata", "plans.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	return all[name]
}

// The three tools that return rows link the view; the others do not.
func TestViewLinkedFromTools(t *testing.T) {
	c := viewClient(t, false)
	res, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, tl := range res.Tools {
		if tl.Meta == nil {
			continue
		}
		ui, _ := tl.Meta.AdditionalFields["ui"].(map[string]any)
		if ui["resourceUri"] == viewer.URI && tl.Meta.AdditionalFields["ui/resourceUri"] == viewer.URI {
			linked[tl.Name] = true
		}
	}
	want := map[string]bool{"ask": true, "run_plan": true, "run_combined_plan": true, "run_verified_query": true}
	if len(linked) != len(want) || !linked["ask"] || !linked["run_plan"] || !linked["run_combined_plan"] || !linked["run_verified_query"] {
		t.Errorf("tools linking %s: %v, want %v", viewer.URI, linked, want)
	}
}

// The view resource is listed and read as an MCP App: its MIME type, the
// page, and a CSP with no domain in _meta.ui.
func TestViewResource(t *testing.T) {
	c := viewClient(t, false)
	ctx := context.Background()
	list, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range list.Resources {
		if r.URI == viewer.URI {
			found = r.MIMEType == viewer.MIMEType && r.Meta != nil && r.Meta.AdditionalFields["ui"] != nil
		}
	}
	if !found {
		t.Errorf("%s not listed with MIME type %s and _meta.ui", viewer.URI, viewer.MIMEType)
	}
	var req mcpgo.ReadResourceRequest
	req.Params.URI = viewer.URI
	got, err := c.ReadResource(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Contents) != 1 {
		t.Fatalf("%d contents", len(got.Contents))
	}
	tc, ok := got.Contents[0].(mcpgo.TextResourceContents)
	if !ok || tc.MIMEType != viewer.MIMEType || tc.Text != viewer.HTML() {
		t.Fatalf("contents: %T %q, %d bytes", got.Contents[0], tc.MIMEType, len(tc.Text))
	}
	b, _ := json.Marshal(tc.Meta)
	if string(b) != `{"ui":{"csp":{"baseUriDomains":[],"connectDomains":[],"frameDomains":[],"resourceDomains":[]},"prefersBorder":true}}` {
		t.Errorf("contents _meta: %s", b)
	}
}

// A client without MCP Apps gets exactly the result it got before the
// view existed (no _meta, same text and structured content); a client
// with it gets the same plus the view's display text and chart.
func TestViewMetaOnlyForAppHosts(t *testing.T) {
	args := map[string]any{"plan": viewPlan(t, "genre_tracks")}
	plain := callTool(t, viewClient(t, false), "run_plan", args)
	withApp := callTool(t, viewClient(t, true), "run_plan", args)
	if plain.IsError || withApp.IsError {
		t.Fatalf("run_plan: %s / %s", text(plain), text(withApp))
	}
	if plain.Meta != nil && plain.Meta.AdditionalFields[viewer.MetaKey] != nil {
		t.Errorf("a client without MCP Apps got the view's _meta")
	}
	if a, b := stable(t, plain), stable(t, withApp); !bytes.Equal(a, b) || text(plain) != text(withApp) {
		t.Errorf("the view changed the structured content or the text:\n%s\n%s", a, b)
	}
	if withApp.Meta == nil {
		t.Fatal("a client with MCP Apps got no _meta")
	}
	raw, _ := json.Marshal(withApp.Meta.AdditionalFields[viewer.MetaKey])
	var v viewer.View
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Chart == nil || v.Chart.Kind != viewer.ChartBar || v.Chart.X != 0 || len(v.Chart.Y) != 1 || v.Chart.Y[0] != 1 {
		t.Errorf("chart %+v, want bars of column 1 by column 0", v.Chart)
	}
	if d := v.Display["1"]; len(d) != 10 || d[0] == nil || *d[0] != "1297" {
		t.Errorf("display of tracks: %v", d)
	}
	t.Logf("genre_tracks result: %d bytes without the view's _meta, %d with", len(mustJSON(t, plain)), len(mustJSON(t, withApp)))
}

// The view's _meta counts in the token budget: a result cut to the budget
// stays under it with the display text, which covers exactly the rows kept.
func TestViewMetaFitsTokenBudget(t *testing.T) {
	res := callTool(t, viewClient(t, true), "run_plan", map[string]any{"plan": viewPlan(t, "all_tracks")})
	if res.IsError {
		t.Fatalf("run_plan: %s", text(res))
	}
	n := sentTokens(t, res)
	if n > 20000 {
		t.Errorf("result with the view is %d tokens, over the 20,000 budget", n)
	}
	var out rowsOut
	structured(t, res, &out)
	if !out.Truncated || len(out.Rows) == 0 {
		t.Fatalf("truncated %v, %d rows", out.Truncated, len(out.Rows))
	}
	raw, _ := json.Marshal(res.Meta.AdditionalFields[viewer.MetaKey])
	var v viewer.View
	_ = json.Unmarshal(raw, &v)
	if len(v.Display["0"]) != len(out.Rows) {
		t.Errorf("display covers %d rows, the result holds %d", len(v.Display["0"]), len(out.Rows))
	}
	t.Logf("all_tracks with the view: %d rows, %d tokens", len(out.Rows), n)
}

// stable is res's structured content without what differs between runs
// (timings, trace id).
func stable(t *testing.T, res *mcpgo.CallToolResult) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "timings")
	delete(m, "trace_id")
	return mustJSON(t, m)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
