package mcp

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
)

// The threat: a server stopped (SIGTERM, a deploy) while a call runs. It
// held the shutdown for the call's whole statement time (11 s) and then
// dropped the connection: the client got "fetch failed", no answer, and
// no word that trying again would do. The call must be stopped at once and
// answered as retryable, and the server must be gone within seconds.
func TestShutdownAnswersTheCallsStillRunning(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- ServeHTTP(ctx, NewServer(a.Engine, "test", logger), HTTPOptions{Addr: "127.0.0.1:0", Ready: ready, Logger: logger, NoAuth: true})
	}()
	c := connect(t, "http://"+<-ready+"/mcp")

	// tracks × tracks × tracks of one media type: billions of rows, far
	// past any shutdown's patience
	col := func(a, c string) map[string]any { return map[string]any{"kind": "column", "table": a, "column": c} }
	on := func(l, r string) map[string]any {
		return map[string]any{"left": l, "right": r, "on": []any{map[string]any{"left_column": "MediaTypeId", "right_column": "MediaTypeId"}}}
	}
	slow := map[string]any{"datasource": "chinook", "plan": map[string]any{
		"select": []any{map[string]any{"expr": map[string]any{"kind": "func", "name": "COUNT", "args": []any{}}, "alias": "n"}},
		"from":   []any{map[string]any{"table": "Track", "alias": "a"}, map[string]any{"table": "Track", "alias": "b"}, map[string]any{"table": "Track", "alias": "c"}},
		"joins":  []any{on("a", "b"), on("b", "c")},
		"where":  map[string]any{"kind": "binary", "op": "<>", "left": col("a", "Name"), "right": col("c", "Composer")},
	}}
	type answer struct {
		res *mcpgo.CallToolResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := c.CallTool(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "run_plan", Arguments: slow}})
		got <- answer{res, err}
	}()
	time.Sleep(time.Second) // the statement runs
	stopped := time.Now()
	stop()
	select {
	case ans := <-got:
		if ans.err != nil || !ans.res.IsError {
			t.Fatalf("the call running at shutdown: %v %+v", ans.err, ans.res)
		}
		txt := ans.res.Content[0].(mcpgo.TextContent).Text
		if !strings.Contains(txt, "shutting down") || !strings.Contains(txt, "retryable") {
			t.Errorf("the call running at shutdown was answered %q", txt)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call running at shutdown got no answer within 5 s")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if d := time.Since(stopped); d > 5*time.Second {
			t.Errorf("shutdown took %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop within 10 s")
	}
}
