package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// hugeLine yields prefix, then filler bytes up to size, then "\n" and
// next, without ever holding the filler in memory.
type hugeLine struct {
	prefix, next string
	size, off    int
}

func (h *hugeLine) Read(p []byte) (int, error) {
	total := h.size + 1 + len(h.next)
	if h.off >= total {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && h.off < total {
		switch {
		case h.off < len(h.prefix):
			p[n] = h.prefix[h.off]
		case h.off < h.size:
			p[n] = 'x'
		case h.off == h.size:
			p[n] = '\n'
		default:
			p[n] = h.next[h.off-h.size-1]
		}
		n++
		h.off++
	}
	return n, nil
}

// serveLines runs a bare MCP server over stdio on in and returns its
// responses by id.
func serveLines(t *testing.T, in io.Reader, max int) map[string]map[string]any {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	var out bytes.Buffer
	if err := ServeStdioLimited(context.Background(), server.NewMCPServer("t", "1"), in, &out, logger, max); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %.200q", l)
		}
		id, _ := json.Marshal(m["id"])
		got[string(id)] = m
	}
	return got
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

const pingNext = `{"jsonrpc":"2.0","id":"next","method":"ping"}` + "\n"

// A client that sends one message over the limit learns which request
// was refused (its id) and why, and its next request is still answered.
func TestStdioLongLineRefusedWithIDAndNextServed(t *testing.T) {
	cases := []struct {
		name, prefix, wantID string
		size                 int
		wantCode             float64
	}{
		{"id first, 5 MB", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_plan","arguments":{"plan":"`, `7`, 5 << 20, -32600},
		{"string id after other members", `{"jsonrpc":"2.0","method":"tools/call","params":{"a":[1,{"id":9}]},"id":"abc","x":"`, `"abc"`, 3 << 20, -32600},
		{"id beyond the limit is unreadable", `{"jsonrpc":"2.0","method":"tools/call","params":{"p":"`, `null`, 2 << 20, -32600},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := serveLines(t, &hugeLine{prefix: c.prefix, size: c.size, next: pingNext}, 1<<20)
			m, ok := got[c.wantID]
			if !ok || errCode(m) != c.wantCode {
				t.Fatalf("want error %v for id %s, got %v", c.wantCode, c.wantID, got)
			}
			if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "limit of 1048576 bytes") {
				t.Errorf("the refusal does not name the limit: %q", msg)
			}
			if _, ok := got[`"next"`]["result"]; !ok {
				t.Errorf("the request after the long line was not answered: %v", got)
			}
		})
	}
}

// A message nested deeper than the JSON decoder allows is refused with
// its id, not with a null id the client cannot match.
func TestStdioDeepNestingRefusedWithID(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"ask","arguments":` +
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}}` + "\n"
	got := serveLines(t, strings.NewReader(deep+`not json`+"\n"+pingNext), 0)
	if errCode(got[`"deep"`]) != -32700 {
		t.Fatalf("deep message: %v", got)
	}
	if errCode(got[`null`]) != -32700 {
		t.Errorf("a line that is not JSON: %v", got)
	}
	if _, ok := got[`"next"`]["result"]; !ok {
		t.Errorf("the request after them was not answered: %v", got)
	}
}

// Lines that are JSON but not one message get an error in the protocol's
// words, never the decoder's Go type names, and the next request is
// answered.
func TestStdioBatchAndNonObjectsRefusedPlainly(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, "batch"},
		{`"ping"`, "is a JSON object, not a JSON string"},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, `member cannot be a JSON number`},
	} {
		var buf bytes.Buffer
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		if err := ServeStdioLimited(context.Background(), server.NewMCPServer("t", "1"), strings.NewReader(c.line+"\n"+pingNext), &buf, logger, 0); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, c.want) || strings.Contains(out, "Go value") || strings.Contains(out, "mcp.message") {
			t.Errorf("%s: got %s, want an error saying %q", c.line, out, c.want)
		}
		if !strings.Contains(out, `"id":"next"`) {
			t.Errorf("%s: the request after it was not answered: %s", c.line, out)
		}
	}
}

// A 50 MB line costs a bounded amount of memory: the reader holds at most
// the limit, never the line.
func TestStdioLongLineMemoryBounded(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := serveLines(t, &hugeLine{prefix: `{"jsonrpc":"2.0","id":1,"params":"`, size: 50 << 20, next: pingNext}, 1<<20)
	runtime.ReadMemStats(&after)
	if errCode(got[`1`]) != -32600 {
		t.Fatalf("got %v", got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("a 50 MB line allocated %d MB; the bound is the 1 MB limit plus buffers", alloc>>20)
	}
}
