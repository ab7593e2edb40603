package cli_test

// Two replicas of the real binary behind no load balancer, on loopback,
// sharing one PostgreSQL state store (storage.postgres): a question planned
// on replica A is a plan-cache hit on replica B, and a session begun on A
// is answered by B (nothing of a session lives in a replica's memory).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// startReplica runs `nl2sql serve --http 127.0.0.1:0` on the Chinook
// config with its own storage.path and the shared store, logging JSON at
// info, and returns its base URL (read from the "serving" log line).
func startReplica(t *testing.T, storeDSN string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, testBinary(t), "serve", "--config", chinookConfig,
		"--http", "127.0.0.1:0", "--insecure-no-auth", "--log-format", "json", "--log-level", "info")
	cmd.Env = append(os.Environ(), "NL2SQL_STORAGE__PATH="+t.TempDir(), "NL2SQL_STORAGE__POSTGRES="+storeDSN)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving MCP over streamable HTTP" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a
	case <-time.After(60 * time.Second):
		t.Fatal("replica did not log its address within 60s")
	}
	return ""
}

// ask calls the ask tool through an mcp-go client of base and returns the
// plan_source of the result's one sub-query.
func ask(t *testing.T, base, question string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.NewStreamableHttpClient(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "ask", map[string]any{"question": question}
	// A replica still opening the datasource answers DATASOURCE_INDEXING
	// (retryable); a client retries it, as its hint says.
	var res *mcpgo.CallToolResult
	for {
		res, err = c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "DATASOURCE_INDEXING") || ctx.Err() != nil {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if res.IsError {
		t.Fatalf("%s: ask %q answered isError: %v", base, question, res.Content)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		SubQueries []struct {
			PlanSource string `json:"plan_source"`
		} `json:"sub_queries"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.SubQueries) != 1 {
		t.Fatalf("structured result (%v), want one sub-query: %.400s", err, b)
	}
	return out.SubQueries[0].PlanSource
}

func TestReplicasShareThePlanCache(t *testing.T) {
	storeDSN := pgtest.Schema(t, pgtest.DSN(t))
	a := startReplica(t, storeDSN)
	b := startReplica(t, storeDSN)

	for _, base := range []string{a, b} {
		resp, err := http.Get(base + "/readyz")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s/readyz: %v %v", base, resp, err)
		}
		resp.Body.Close()
	}
	// B answers a recorded question of its own first: its retrieval index,
	// rebuilt from the shared snapshot, gives the prompt the recording was
	// made with.
	if src := ask(t, b, "How many customers are there in each country?"); src != "llm" {
		t.Errorf("B's own question: plan_source %q, want llm (a replayed model answer)", src)
	}
	if src := ask(t, a, chinookQuestion); src != "llm" {
		t.Errorf("A plans %q: plan_source %q, want llm", chinookQuestion, src)
	}
	if src := ask(t, b, chinookQuestion); src != "cache" {
		t.Errorf("B asked what A planned: plan_source %q, want cache", src)
	}

	// A session begun on A (2025-06-18 revision, Mcp-Session-Id) is
	// answered by B.
	sid := rpc(t, a, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hop","version":"1"}}}`)
	if sid == "" {
		t.Fatal("A gave no Mcp-Session-Id")
	}
	rpc(t, b, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	body := rpcBody(t, b, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"question":"`+chinookQuestion+`"}}}`)
	if !strings.Contains(body, `\"plan_source\": \"cache\"`) && !strings.Contains(body, `"plan_source":"cache"`) {
		t.Errorf("B on A's session: no cached answer:\n%.600s", body)
	}

	resp, err := http.Get(b + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(m), `nl2sql_tool_calls_total{outcome="ok",tool="ask"} 3`) || !strings.Contains(string(m), "nl2sql_ready 1") {
		t.Errorf("B's /metrics lacks its 3 ask calls or readiness:\n%s", grepLines(string(m), "nl2sql_"))
	}
}

// rpc posts one JSON-RPC message to base/mcp (with session id sid when not
// "") and returns the Mcp-Session-Id of the response.
func rpc(t *testing.T, base, sid, msg string) string {
	t.Helper()
	resp := post(t, base, sid, msg)
	resp.Body.Close()
	return resp.Header.Get("Mcp-Session-Id")
}

// rpcBody is rpc returning the response body.
func rpcBody(t *testing.T, base, sid, msg string) string {
	t.Helper()
	resp := post(t, base, sid, msg)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func post(t *testing.T, base, sid, msg string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", bytes.NewReader([]byte(msg)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s: %s: %s", base, resp.Status, b)
	}
	return resp
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
