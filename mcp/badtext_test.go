package mcp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The threat: a message whose text is not UTF-8, or that escapes half a
// surrogate pair, was read with U+FFFD in place of what was sent ("caf\xc3
// orders" asked about "caf"; a literal "\ud800" ran as '�' against the
// data), with no word to the client. Both are refused with the request's
// id, over stdio and HTTP, and the next request is answered; text that is
// valid (a pair escaped whole, a backslash before "ud800") passes.
func TestBadTextRefusedWithID(t *testing.T) {
	base := startHTTP(t, HTTPOptions{NoAuth: true})
	call := func(id, text string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"ask","arguments":{"question":"` + text + `"}}}`
	}
	for _, c := range []struct {
		text string
		bad  string // what the refusal says, "" when valid
	}{
		{"caf\xc3 \xff orders", "byte 0xc3 is not UTF-8"},
		{`lone \ud800 high`, `\ud800 is half a surrogate pair`},
		{`lone \udc00 low`, `\udc00 is half a surrogate pair`},
		{`high then other \ud83d\u0041`, `\ud83d is half a surrogate pair`},
		{`a pair \ud83d\ude00 whole`, ""},
		{`an escaped backslash \\ud800 is text`, ""},
		{"café ünïcode", ""},
	} {
		if _, what, ok := badText([]byte(call("x", c.text))); ok != (c.bad == "") || !strings.Contains(what, c.bad) {
			t.Errorf("%q: refused %v (%q), want refused %v saying %q", c.text, !ok, what, c.bad != "", c.bad)
		}
		if c.bad == "" {
			continue
		}
		got := serveLines(t, strings.NewReader(call("bad", c.text)+"\n"+pingNext), 0)
		e, _ := got[`"bad"`]["error"].(map[string]any)
		if msg, _ := e["message"].(string); errCode(got[`"bad"`]) != -32600 || !strings.Contains(msg, c.bad) {
			t.Errorf("stdio %q: %v", c.text, got[`"bad"`])
		}
		if _, ok := got[`"next"`]["result"]; !ok {
			t.Errorf("stdio %q: the request after it was not answered: %v", c.text, got)
		}
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(call("bad", c.text)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"id":"bad"`) || !strings.Contains(string(b), c.bad) {
			t.Errorf("http %q: %d %s", c.text, resp.StatusCode, b)
		}
	}
	// a valid body reaches the server whole
	body := call("ok", "café")
	var seen string
	withTextCheck(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		b := new(strings.Builder)
		_, _ = io.Copy(b, r.Body)
		seen = b.String()
	})).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body)))
	if seen != body {
		t.Errorf("the server read %q, want the body sent", seen)
	}
}
