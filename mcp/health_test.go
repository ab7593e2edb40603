package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestReadyzAndMetrics: /readyz follows the readiness check (the shared
// store going away makes it 503), /metrics serves the Prometheus text
// format with the HTTP and tool-call counters, and neither needs a token.
func TestReadyzAndMetrics(t *testing.T) {
	var down atomic.Bool
	m := NewMetrics()
	base := startHTTP(t, HTTPOptions{NoAuth: true, Metrics: m, Readiness: func(ctx context.Context) (string, error) {
		if down.Load() {
			return "", errors.New("STORE_UNAVAILABLE: postgres://n@127.0.0.1:5432/state does not answer")
		}
		return "", nil
	}})
	if code, body := get(t, base+"/readyz"); code != 200 || body != "ready\n" {
		t.Errorf("/readyz = %d %q", code, body)
	}
	c := connect(t, base+"/mcp")
	ctx := context.Background()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "list_datasources"
	if _, err := c.CallTool(ctx, req); err != nil {
		t.Fatal(err)
	}
	req.Params.Name, req.Params.Arguments = "describe_schema", map[string]any{"datasource": "nope"}
	if _, err := c.CallTool(ctx, req); err != nil {
		t.Fatal(err)
	}

	code, body := get(t, base+"/metrics")
	for _, want := range []string{
		`nl2sql_tool_calls_total{outcome="ok",tool="list_datasources"} 1`,
		`nl2sql_tool_calls_total{outcome="tool_error",tool="describe_schema"} 1`,
		`nl2sql_http_requests_total{code="200",handler="/mcp",method="post"}`,
		`nl2sql_tool_call_duration_seconds_count{tool="list_datasources"} 1`,
		"nl2sql_ready 1",
		"go_goroutines",
	} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("/metrics (%d) lacks %q", code, want)
		}
	}

	down.Store(true)
	if code, body := get(t, base+"/readyz"); code != 503 || !strings.Contains(body, "STORE_UNAVAILABLE") || strings.Contains(body, "postgres://") || strings.Contains(body, "@") {
		t.Errorf("/readyz with the store down = %d %q", code, body)
	}
	if _, body := get(t, base+"/metrics"); !strings.Contains(body, "nl2sql_ready 0") {
		t.Error("nl2sql_ready did not drop to 0")
	}
	if code, _ := get(t, base+"/healthz"); code != 200 {
		t.Errorf("/healthz = %d while not ready", code)
	}
}

// connect starts an initialized mcp-go streamable HTTP client of url,
// closed with the test, speaking mcp-go's newest protocol.
func connect(t *testing.T, url string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	return connectAt(t, url, "", opts...)
}

// /readyz says the reason of a NotReady (a server none of whose
// datasources opens is no place to route to, for a reason of its own, not
// the store's), and the note of a server that is ready with a part down.
func TestReadyzSaysTheReasonAndTheNote(t *testing.T) {
	var note atomic.Value
	note.Store("")
	base := startHTTP(t, HTTPOptions{NoAuth: true, Readiness: func(ctx context.Context) (string, error) {
		if n := note.Load().(string); n != "down" {
			return n, nil
		}
		return "", &NotReady{Reason: "no datasource can be opened: shop (DATASOURCE_UNAVAILABLE)", Err: errors.New("postgres://u@db.internal/shop: refused")}
	}})
	note.Store("down")
	if code, body := get(t, base+"/readyz"); code != 503 || body != "not ready: no datasource can be opened: shop (DATASOURCE_UNAVAILABLE); the server log has the details\n" {
		t.Errorf("/readyz with no datasource = %d %q", code, body)
	}
	note.Store("1 datasource cannot be opened, the others serve: shop (DATASOURCE_UNAVAILABLE)")
	if code, body := get(t, base+"/readyz"); code != 200 || body != "ready: 1 datasource cannot be opened, the others serve: shop (DATASOURCE_UNAVAILABLE)\n" {
		t.Errorf("/readyz with one datasource down = %d %q", code, body)
	}
}
