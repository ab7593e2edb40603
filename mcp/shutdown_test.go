package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
)

// openChinook opens the bundled example, closed when the test ends.
func openChinook(t *testing.T) (*app.App, *slog.Logger) {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, logger
}

// slowRunPlan is run_plan's arguments for tracks × tracks × tracks of one
// media type: billions of rows, far past any shutdown's patience.
func slowRunPlan() map[string]any {
	col := func(a, c string) map[string]any { return map[string]any{"kind": "column", "table": a, "column": c} }
	on := func(l, r string) map[string]any {
		return map[string]any{"left": l, "right": r, "on": []any{map[string]any{"left_column": "MediaTypeId", "right_column": "MediaTypeId"}}}
	}
	return map[string]any{"datasource": "chinook", "plan": map[string]any{
		"select": []any{map[string]any{"expr": map[string]any{"kind": "func", "name": "COUNT", "args": []any{}}, "alias": "n"}},
		"from":   []any{map[string]any{"table": "Track", "alias": "a"}, map[string]any{"table": "Track", "alias": "b"}, map[string]any{"table": "Track", "alias": "c"}},
		"joins":  []any{on("a", "b"), on("b", "c")},
		"where":  map[string]any{"kind": "binary", "op": "<>", "left": col("a", "Name"), "right": col("c", "Composer")},
	}}
}

// The threat: a server stopped (SIGTERM, a deploy) while a call runs. It
// held the shutdown for the call's whole statement time (11 s) and then
// dropped the connection: the client got "fetch failed", no answer, and
// no word that trying again would do. The call must be stopped at once and
// answered as retryable, and the server must be gone within seconds.
func TestShutdownAnswersTheCallsStillRunning(t *testing.T) {
	a, logger := openChinook(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- ServeHTTP(ctx, NewServer(a.Engine, "test", logger), HTTPOptions{Addr: "127.0.0.1:0", Ready: ready, Logger: logger, NoAuth: true})
	}()
	c := connect(t, "http://"+<-ready+"/mcp")
	slow := slowRunPlan()
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

// The same threat over stdio: SIGTERM (ctx ending) while a call runs. The
// call was answered with a bare CANCELLED, which says neither that the
// server is going away nor that the same request will work again; it must
// get the answer HTTP gives, at once, and serving must end.
func TestStdioShutdownAnswersTheCallsStillRunning(t *testing.T) {
	a, logger := openChinook(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdioLimited(ctx, NewServer(a.Engine, "test", logger), inR, outW, logger, 0)
		outW.Close()
	}()
	answers := make(chan map[string]any, 8)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				answers <- m
			}
		}
		close(answers)
	}()
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "run_plan", "arguments": slowRunPlan()}})
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+string(call)+"\n")
	if m := <-answers; m["id"] != float64(0) {
		t.Fatalf("first answer: %v", m)
	}
	time.Sleep(time.Second) // the statement runs
	stopped := time.Now()
	stop()
	select {
	case m := <-answers:
		res, _ := m["result"].(map[string]any)
		b, _ := json.Marshal(res["content"])
		if m["id"] != float64(1) || res["isError"] != true || !strings.Contains(string(b), "shutting down") || !strings.Contains(string(b), "retryable") {
			t.Errorf("the call running at shutdown was answered %v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call running at shutdown got no answer within 5 s")
	}
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serving stopped with %v", err)
		}
		if d := time.Since(stopped); d > 5*time.Second {
			t.Errorf("stopping took %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serving did not stop within 10 s")
	}
}
