package mcp

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/scope"
)

type tokenAuth map[string]string

func (t tokenAuth) Authenticate(token string) (any, bool) {
	u, ok := t[scope.TokenDigest(token)]
	return u, ok
}

func startHTTP(t *testing.T, o HTTPOptions) string {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	o.Addr, o.Ready, o.Logger = "127.0.0.1:0", ready, logger
	done := make(chan error, 1)
	var extra []server.ServerOption
	if o.Metrics != nil {
		extra = append(extra, o.Metrics.ServerOption())
	}
	go func() { done <- ServeHTTP(ctx, NewServer(a.Engine, "test", logger, extra...), o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	select {
	case addr := <-ready:
		return "http://" + addr
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	return ""
}

// The 2026-07-28 (stateless) revision through mcp-go's own client, with a
// bearer token.
func TestHTTPModernClient(t *testing.T) {
	base := startHTTP(t, HTTPOptions{Auth: tokenAuth{scope.TokenDigest("s3cret"): "alice"}})
	c := connect(t, base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer s3cret"}))
	ctx := context.Background()
	tl, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Tools) < 6 {
		t.Errorf("%d tools", len(tl.Tools))
	}
	res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "Which artist has released the most albums?"}}})
	if err != nil || res.IsError {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if text := res.Content[0].(mcpgo.TextContent).Text; !strings.Contains(text, "Iron Maiden") {
		t.Errorf("text = %q", text)
	}
}

func TestHTTPGuards(t *testing.T) {
	base := startHTTP(t, HTTPOptions{Auth: tokenAuth{scope.TokenDigest("s3cret"): "alice"}})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	cases := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"foreign origin", map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://attacker.example"}, http.StatusForbidden},
		{"foreign host", map[string]string{"Authorization": "Bearer s3cret", "Host": "attacker.example"}, http.StatusForbidden},
		{"ok", map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://127.0.0.1:1234"}, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.hdr {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d", resp.StatusCode, c.status)
			}
			if c.status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q", resp.Header.Get("WWW-Authenticate"))
			}
			if c.status == http.StatusForbidden && resp.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Error("a refused origin got CORS headers")
			}
		})
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", err, resp)
	}
	resp.Body.Close()
	big := strings.Repeat("x", MaxRequestBytes+10)
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+big+`"}}`))
	req.Header.Set("Authorization", "Bearer s3cret")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Errorf("an oversize body got %d", resp.StatusCode)
	}
}

func TestNoAuthOnlyOnLoopback(t *testing.T) {
	err := ServeHTTP(context.Background(), nil, HTTPOptions{Addr: "0.0.0.0:0", NoAuth: true})
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("err = %v", err)
	}
	err = ServeHTTP(context.Background(), nil, HTTPOptions{Addr: "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "authentication") {
		t.Fatalf("err = %v", err)
	}
}

// A request body over the limit is refused with 413 and a message naming
// the limit and the flag that sets it: "larger than the limit" alone left
// the sender guessing how much to cut, and the operator which setting to
// raise. --max-line-bytes sets it on HTTP as on stdio.
func TestHTTPOversizeBodyNamesLimitAndFlag(t *testing.T) {
	for _, c := range []struct {
		name  string
		max   int
		size  int
		limit string
	}{
		{"default", 0, MaxRequestBytes + 10, "limit of 1048576 bytes"},
		{"--max-line-bytes", 4096, 5000, "limit of 4096 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := startHTTP(t, HTTPOptions{Auth: tokenAuth{scope.TokenDigest("s3cret"): "alice"}, MaxRequestBytes: c.max})
			req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("x", c.size)+`"}}`))
			req.Header.Set("Authorization", "Bearer s3cret")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), c.limit) || !strings.Contains(string(b), "serve --max-line-bytes") {
				t.Errorf("%d %s, want 413 naming the %s and serve --max-line-bytes", resp.StatusCode, b, c.limit)
			}
		})
	}
}
