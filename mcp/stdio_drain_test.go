package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/app"
)

// A client that pipes its requests in and closes stdin still gets every
// answer: the end of input waits for the responses owed (the first ask
// opens and indexes the datasource, so it is still running at EOF).
func TestStdioAnswersEverythingReadBeforeEOF(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"question":"Which artist has released the most albums?"}}}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"list_datasources","arguments":{}}}`,
		`not json`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), NewServer(a.Engine, "test", logger), strings.NewReader(in), &out, logger); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %q", l)
		}
		id, _ := json.Marshal(m["id"])
		got[string(id)] = m
	}
	for _, id := range []string{`1`, `2`, `"three"`} {
		m, ok := got[id]
		if !ok {
			t.Fatalf("no response to request %s; stdout:\n%s", id, out.String())
		}
		res, _ := m["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("request %s: %v", id, m)
		}
	}
	if sc, _ := got[`2`]["result"].(map[string]any)["structuredContent"].(map[string]any); sc == nil || !strings.Contains(toJSON(sc["rows"]), "Iron Maiden") {
		t.Errorf("ask answered %v", got[`2`])
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
