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

// hugeLine yields prefix, filler bytes, then suffix (size bytes in all),
// then "\n" and next, without ever holding the filler in memory.
type hugeLine struct {
	prefix, suffix, next string
	size, off            int
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
		case h.off < h.size-len(h.suffix):
			p[n] = 'x'
		case h.off < h.size:
			p[n] = h.suffix[h.off-(h.size-len(h.suffix))]
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

// The threat: a client sends a request over the limit and, instead of an
// error, waits for its timeout (60 s in the TypeScript SDK), because the
// refusal carries a null id it cannot match. The SDK writes "id" last,
// after megabytes of arguments, so the id must be found wherever it is in
// the line, the discarded part included, and only at the top level. The
// next request is still answered.
func TestStdioLongLineRefusedWithIDAndNextServed(t *testing.T) {
	const args = `{"method":"tools/call","params":{"name":"ask","arguments":{"question":"`
	cases := []struct {
		name, prefix, suffix, wantID string
		size                         int
	}{
		{"numeric id last, as the TypeScript SDK writes it", args, `"}},"jsonrpc":"2.0","id":5}`, `5`, 3 << 20},
		{"string id last", args, `"}},"jsonrpc":"2.0","id":"req-9"}`, `"req-9"`, 3 << 20},
		{"id first", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_plan","arguments":{"plan":"`, `"}}}`, `7`, 5 << 20},
		{"string id between other members", `{"jsonrpc":"2.0","method":"tools/call","params":{"a":[1,{"id":9}]},"id":"abc","x":"`, `"}`, `"abc"`, 3 << 20},
		{"params.arguments.id is not the request's id", `{"method":"tools/call","params":{"name":"ask","arguments":{"id":99,"q":"`, `"}},"jsonrpc":"2.0","id":5}`, `5`, 3 << 20},
		{"only a nested id: none", `{"method":"tools/call","params":{"name":"ask","arguments":{"id":99,"q":"`, `"}},"jsonrpc":"2.0"}`, `null`, 3 << 20},
		{"escaped quotes in a string before the id", args + `say \"hi\", \\`, `\\\""}},"id":6,"jsonrpc":"2.0"}`, `6`, 3 << 20},
		{"an \"id\" inside a string is not the id", `{"method":"tools/call","params":"\"id\":1,`, `","id":2}`, `2`, 3 << 20},
		{"an id over the cap is no id", args, `"}},"id":"` + strings.Repeat("i", 300) + `"}`, `null`, 3 << 20},
		{"an id that is not a string or number is no id", args, `"}},"id":{"n":1}}`, `null`, 3 << 20},
		{"a batch has no top-level id", `[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"`, `"}]`, `null`, 3 << 20},
		{"an unterminated line has no id", `{"jsonrpc":"2.0","method":"tools/call","params":{"p":"`, ``, `null`, 2 << 20},
		{"8 MB, id last", args, `"}},"jsonrpc":"2.0","id":8}`, `8`, 8 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := serveLines(t, &hugeLine{prefix: c.prefix, suffix: c.suffix, size: c.size, next: pingNext}, 1<<20)
			m, ok := got[c.wantID]
			if !ok || errCode(m) != -32600 {
				t.Fatalf("want error -32600 for id %s, got %v", c.wantID, got)
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

// The id is found whatever the pieces the line arrives in: a piece may end
// inside a name, an escape or the id itself.
func TestIDScannerAcrossPieces(t *testing.T) {
	cases := []struct {
		msg  string
		want any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, json.Number("1")},
		{`{"method":"ping","params":{"id":2,"x":[{"id":3}]},"id":-4.5e2}`, json.Number("-4.5e2")},
		{` { "id" : "a\"b\\" , "method":"ping"}`, `a"b\`},
		{`{"\u0069d":"esc"}`, "esc"},
		{`{"idx":1,"xid":2}`, nil},
		{`{"params":{"id":1}}`, nil},
		{`{"a":"}\"{","id":7}`, json.Number("7")},
		{`{"id":1,"id":null}`, nil},
		{`{"id":true}`, nil},
		{`{"id":"` + strings.Repeat("y", maxIDBytes) + `"}`, nil},
		{`[{"id":1}]`, nil},
		{`"id"`, nil},
		{`{"id":1} {"id":2}`, json.Number("1")},
		{`{"id":12`, nil},
	}
	for _, c := range cases {
		for _, piece := range []int{1, 2, 3, 7, len(c.msg)} {
			var s idScanner
			for b := []byte(c.msg); len(b) > 0; {
				n := min(piece, len(b))
				s.Write(b[:n])
				b = b[n:]
			}
			if got := s.ID(); got != c.want {
				t.Errorf("%s in pieces of %d: id %#v, want %#v", c.msg, piece, got, c.want)
			}
			if cap(s.val) > 2*maxIDBytes || cap(s.name) > 2*maxNameBytes {
				t.Errorf("%s: the scanner holds %d+%d bytes", c.msg, cap(s.name), cap(s.val))
			}
		}
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

// A line far over the limit costs the same bounded memory whatever its
// size, with its id at the end: the reader holds at most the limit (its
// line buffer) and the read buffer, never the line, and the scanner holds
// no more than its caps.
func TestStdioLongLineMemoryBounded(t *testing.T) {
	const max = 1 << 20
	done, cancel := context.WithCancel(context.Background())
	cancel() // no waiting for the answers owed at the end of input
	for _, size := range []int{8 << 20, 64 << 20} {
		var out bytes.Buffer
		d := newDrain()
		in := &hugeLine{prefix: `{"method":"tools/call","params":{"arguments":{"q":"`, suffix: `"}},"jsonrpc":"2.0","id":42}`, size: size, next: pingNext}
		r := newLineReader(done, in, max, d, &stdioWriter{w: &out, d: d})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		passed, err := io.ReadAll(r)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `"id":42`) || string(passed) != pingNext {
			t.Fatalf("%d MB: refused %s, passed on %q", size>>20, out.String(), passed)
		}
		if cap(r.line) > max+64<<10 {
			t.Errorf("%d MB: the reader's line buffer grew to %d bytes, over the %d limit plus the read buffer", size>>20, cap(r.line), max)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*max {
			t.Errorf("%d MB: reading the line allocated %d KB; the bound is the %d KB limit plus buffers", size>>20, alloc>>10, max>>10)
		}
	}
}
