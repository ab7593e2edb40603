package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/app"
)

// The threat: a host asks for order 9007199254740993 and is told the
// status of order 9007199254740992, with no warning. A JSON number beyond
// 2^53 read as a float64 loses its last digits, so the arguments must be
// read from the bytes the client sent. The test speaks raw JSON-RPC: a
// JavaScript or Go client would round the number itself before sending.
func TestIntegerLiteralsBeyondFloatPrecisionKeepEveryDigit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "orders.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE orders (order_id INTEGER PRIMARY KEY, status TEXT NOT NULL)`,
		`INSERT INTO orders VALUES (9007199254740992, 'pending'), (9007199254740993, 'paid')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n  - {id: shop, engine: sqlite, path: " + path + "}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()

	plan := `{"select":[{"expr":{"kind":"column","table":"o","column":"status"},"alias":"st"}],` +
		`"from":[{"table":"orders","alias":"o"}],` +
		`"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"order_id"},` +
		`"right":{"kind":"literal","type":"integer","value":9007199254740993}}}`
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_plan","arguments":{"datasource":"shop","plan":` + plan + `}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_plan","arguments":{"datasource":"shop","datasource":"other","plan":` + plan + `}}}` + "\n"
	var out strings.Builder
	if err := ServeStdioLimited(context.Background(), NewServer(a.Engine, "test", logger), strings.NewReader(in), &out, logger, 1<<20); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(l), &m)
		byID[string(m.ID)] = l
	}
	var res struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Rows [][]any `json:"rows"`
				SQL  string  `json:"sql"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(byID["1"]), &res); err != nil {
		t.Fatalf("%v: %s", err, byID["1"])
	}
	got := res.Result.StructuredContent
	if res.Result.IsError || len(got.Rows) != 1 || got.Rows[0][0] != "paid" || !strings.Contains(got.SQL, "9007199254740993") {
		t.Errorf("run_plan for order 9007199254740993: rows %v, SQL %q (error %v); want paid", got.Rows, got.SQL, res.Result.IsError)
	}
	// an argument named twice is refused, not settled by the last one
	if l := byID["2"]; !strings.Contains(l, `"isError":true`) || !strings.Contains(l, "datasource") || !strings.Contains(l, "twice") {
		t.Errorf("arguments naming datasource twice: %s", l)
	}
}
