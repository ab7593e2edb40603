package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/app"
)

// paramRequests are requests whose parameters are wrong: the specification
// answers them with -32602 (invalid params), not -32603 (internal error),
// so a client can tell its own mistake from the server's failure. (A URI
// that matches no resource or template at all is mcp-go's own answer: the
// revision's not-found code, -32002 before 2026-07-28.)
var paramRequests = []string{
	`{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"nl2sql://nosuch/schema"}}`,
	`{"jsonrpc":"2.0","id":12,"method":"prompts/get","params":{"name":"ask_the_database","arguments":{}}}`,
}

func errorCodes(t *testing.T, lines []string) map[string]float64 {
	t.Helper()
	codes := map[string]float64{}
	for _, l := range lines {
		l = strings.TrimPrefix(strings.TrimSpace(l), "data: ")
		if !strings.HasPrefix(l, "{") {
			continue
		}
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code float64 `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Error != nil {
			codes[string(m.ID)] = m.Error.Code
		}
	}
	return codes
}

func TestInvalidParamsOverStdio(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	in := strings.Join(append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, paramRequests...), "\n") + "\n"
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), NewServer(a.Engine, "test", logger), strings.NewReader(in), &out, logger); err != nil {
		t.Fatal(err)
	}
	codes := errorCodes(t, strings.Split(out.String(), "\n"))
	for _, id := range []string{"10", "12"} {
		if codes[id] != -32602 {
			t.Errorf("request %s: error code %v, want -32602 (invalid params)\n%s", id, codes[id], out.String())
		}
	}
}

func TestInvalidParamsOverHTTP(t *testing.T) {
	base := startHTTP(t, HTTPOptions{NoAuth: true})
	post := func(body string, session string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, _ := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "")
	session := resp.Header.Get("Mcp-Session-Id")
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session)
	for i, r := range paramRequests {
		_, body := post(r, session)
		id := []string{"10", "12"}[i]
		if c := errorCodes(t, strings.Split(body, "\n"))[id]; c != -32602 {
			t.Errorf("request %s: error code %v, want -32602\n%s", id, c, body)
		}
	}
}

// The rewrite touches only an internal error carrying the marker; text
// that merely mentions it inside a result is data and stays as it is.
func TestFixInvalidParamsOnlyMarkedErrors(t *testing.T) {
	same := []string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"database down"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"\"error\":{\"code\":-32603,\"message\":\"invalid params: x\""}]}}`,
	}
	for _, s := range same {
		if got := string(fixInvalidParams([]byte(s))); got != s {
			t.Errorf("rewrote %s into %s", s, got)
		}
	}
	in := `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"invalid params: the prompt needs a question"}}`
	if got := string(fixInvalidParams([]byte(in))); !strings.Contains(got, `"code":-32602`) || len(got) != len(in) {
		t.Errorf("got %s", got)
	}
}
