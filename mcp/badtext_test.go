package mcp

import (
	"github.com/nl2sql/nl2sql/internal/jsontext"
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
		{"caf\xc3 \xff orders", "byte 0xc3 is not UTF-8: send the message encoded as UTF-8"},
		{`lone \ud800 high`, `\ud800 is half a surrogate pair`},
		{`lone \udc00 low`, `\udc00 is half a surrogate pair`},
		{`high then other \ud83d\u0041`, `\ud83d is half a surrogate pair`},
		{`a pair \ud83d\ude00 whole`, ""},
		{`an escaped backslash \\ud800 is text`, ""},
		{"café ünïcode", ""},
		{`1e400 as text stays text`, ""},
	} {
		if _, what, ok := jsontext.Bad([]byte(call("x", c.text))); ok != (c.bad == "") || !strings.Contains(what, c.bad) {
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

// The threat: a number beyond a double's range in a tool's arguments
// (a literal 1e400) failed the whole request with "cannot unmarshal number
// 1e400 into Go struct field CallToolRequest.params of type float64": no
// path, Go's names, and a type that misleads. It is refused saying which
// number and what to send instead; numbers a double holds, however
// written, pass.
func TestNumbersBeyondADoubleRefusedPlainly(t *testing.T) {
	plan := func(v string) string {
		return `{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"run_plan","arguments":{"plan":{"select":[{"expr":{"kind":"literal","value":` + v + `},"alias":"x"}]}}}}`
	}
	for _, c := range []struct {
		v   string
		bad bool
	}{
		{"1e400", true},
		{"-1E+999", true},
		{"1" + strings.Repeat("0", 400), true},
		{"1e308", false},
		{"123456789012345678901234567890", false},
		{"-0.5e-3", false},
		{"1e-400", false}, // underflows to 0, which a double holds
	} {
		_, what, ok := jsontext.Bad([]byte(plan(c.v)))
		if ok == c.bad || c.bad && (!strings.Contains(what, "beyond what a double holds") || strings.Contains(what, "Go ")) {
			t.Errorf("%s: refused %v (%q), want refused %v", c.v, !ok, what, c.bad)
		}
	}
	got := serveLines(t, strings.NewReader(plan("1e400")+"\n"+pingNext), 0)
	// the message says what is wrong with this message only: a number
	// sent as it should be is not also told to mend its encoding
	if e, _ := got[`"n"`]["error"].(map[string]any); errCode(got[`"n"`]) != -32600 || !strings.Contains(e["message"].(string), "the number 1e400") || strings.Contains(e["message"].(string), "UTF-8") {
		t.Errorf("stdio: %v", got[`"n"`])
	}
}
