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

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nl2sql/nl2sql/internal/app"
)

// Threat: a tool schema that a client's validator cannot compile (a
// "$ref" that does not resolve from the document root, an unknown
// keyword's typo) makes the TypeScript SDK's listTools throw: the host sees
// no tool at all. Every listed tool's input and output schema must compile
// on its own, as a client compiles it, with every reference resolved.
func TestEveryToolSchemaCompiles(t *testing.T) {
	// the raw tools/list answer as it goes on the wire: a client's typed
	// decoding would drop what it does not model ("anyOf", "$defs")
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	s := NewServer(a.Engine, "test", logger)
	ctx := context.Background()
	s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	wire, err := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)))
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Result struct {
			Tools []map[string]json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(wire, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Result.Tools) < 10 {
		t.Fatalf("only %d tools listed: %s", len(resp.Result.Tools), wire)
	}
	for _, doc := range resp.Result.Tools {
		var tl struct{ Name string }
		tl.Name = strings.Trim(string(doc["name"]), `"`)
		for _, key := range []string{"inputSchema", "outputSchema"} {
			raw, ok := doc[key]
			if !ok {
				t.Errorf("%s: no %s", tl.Name, key)
				continue
			}
			schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s %s: %v", tl.Name, key, err)
			}
			comp := jsonschema.NewCompiler()
			url := "mem://" + tl.Name + "/" + key
			if err := comp.AddResource(url, schema); err != nil {
				t.Fatalf("%s %s: %v", tl.Name, key, err)
			}
			if _, err := comp.Compile(url); err != nil {
				t.Errorf("%s %s does not compile as a client compiles it: %v", tl.Name, key, err)
			}
		}
	}
}
