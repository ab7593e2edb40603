package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/scope"
)

// The session-based lifecycle of the 2025-11-25 revision, by raw HTTP, as a
// client library would not show it: what a client that ends its session,
// forgets its id or sends a batch is told. The stateless 2026-07-28 revision
// is checked alongside so that none of this leaks into it.
func TestHTTPLifecycle(t *testing.T) {
	base := startHTTP(t, HTTPOptions{Auth: tokenAuth{scope.TokenDigest("s3cret"): "alice"}})
	const legacy = "2025-11-25"
	const modern = "2026-07-28"
	do := func(method string, hdr map[string]string, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer s3cret")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + legacy + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	resp, _ := do("POST", nil, init)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || !strings.HasPrefix(sid, "mcp-session-") {
		t.Fatalf("initialize: %d, session id %q", resp.StatusCode, sid)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_datasources","arguments":{}}}`
	modernCall := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_datasources","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modern + `","io.modelcontextprotocol/clientCapabilities":{}}}}`
	withSID := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": legacy}
	modernHdr := map[string]string{"MCP-Protocol-Version": modern, "Mcp-Method": "tools/call", "Mcp-Name": "list_datasources"}
	cases := []struct {
		name, method string
		hdr          map[string]string
		body         string
		status       int
		allow        bool   // the response must carry Allow: POST
		rpcCode      int    // a JSON-RPC error with this code, when non-zero
		want         string // a substring of the body
	}{
		{"tools/call with the session id", "POST", withSID, call, 200, false, 0, "chinook"},
		{"tools/call without a session id", "POST", map[string]string{"MCP-Protocol-Version": legacy}, call, 400, false, 0, "Mcp-Session-Id"},
		{"notification without a session id", "POST", map[string]string{"MCP-Protocol-Version": legacy}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 400, false, 0, "Mcp-Session-Id"},
		{"malformed session id", "POST", map[string]string{"Mcp-Session-Id": "not-a-session", "MCP-Protocol-Version": legacy}, call, 404, false, 0, ""},
		{"batch", "POST", withSID, "[" + call + "," + call + "]", 400, false, -32600, "batch"},
		{"batch, modern revision", "POST", modernHdr, " [" + modernCall + "]", 400, false, -32600, "batch"},
		{"GET: no standalone stream", "GET", withSID, "", 405, true, 0, ""},
		{"PUT", "PUT", withSID, "", 405, true, 0, ""},
		{"DELETE refused", "DELETE", withSID, "", 405, true, 0, ""},
		{"the id after a refused DELETE still works", "POST", withSID, call, 200, false, 0, "chinook"},
		{"modern tools/call, no session id", "POST", modernHdr, modernCall, 200, false, 0, "chinook"},
		{"modern GET", "GET", map[string]string{"MCP-Protocol-Version": modern}, "", 405, true, 0, ""},
		{"modern DELETE", "DELETE", map[string]string{"MCP-Protocol-Version": modern}, "", 405, true, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := do(c.method, c.hdr, c.body)
			t.Logf("%s %s -> %d", c.method, c.name, resp.StatusCode)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			if c.allow && resp.Header.Get("Allow") != "POST" {
				t.Errorf("Allow = %q on a %d", resp.Header.Get("Allow"), resp.StatusCode)
			}
			if c.rpcCode != 0 {
				var m struct {
					JSONRPC string `json:"jsonrpc"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(body), &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code != c.rpcCode {
					t.Errorf("want JSON-RPC error %d, got %s (%v)", c.rpcCode, body, err)
				}
				if strings.Contains(body, "not valid json") {
					t.Errorf("a batch is reported as invalid JSON: %s", body)
				}
			}
			if !strings.Contains(strings.ToLower(body), strings.ToLower(c.want)) {
				t.Errorf("body lacks %q: %.300s", c.want, body)
			}
		})
	}
}
