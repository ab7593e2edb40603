package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// DefaultMaxLineBytes bounds one stdio line (one JSON-RPC message), the
// same bound the HTTP transport puts on a request body.
const DefaultMaxLineBytes = MaxRequestBytes

// lineReader stands in front of mcp-go's stdio reader, which keeps a whole
// line in memory whatever its size (bufio.Reader.ReadString) and answers a
// message it cannot parse with a null id. lineReader hands mcp-go complete
// lines only, and only lines that parse: a line over max bytes is refused
// as soon as the limit is crossed and the rest of it is read and discarded
// in fixed-size pieces, never held; a line that does not parse (not JSON,
// nested deeper than encoding/json allows) is refused too. Both refusals
// are JSON-RPC errors carrying the request id when the start of the line
// shows one (requestID), written through the same serialised writer as
// mcp-go's answers. Memory stays within max plus the read buffer, time is
// linear in the input, and the next line is served as usual.
type lineReader struct {
	ctx  context.Context
	in   *bufio.Reader
	max  int
	d    *drain
	out  *stdioWriter
	line []byte // the line being assembled (at most max bytes)
	rest []byte // what is left of the accepted line to hand out
	err  error  // the input's error, returned once rest is out
}

func newLineReader(ctx context.Context, in io.Reader, max int, d *drain, out *stdioWriter) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{ctx: ctx, in: bufio.NewReaderSize(in, 64<<10), max: max, d: d, out: out}
}

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		if r.err != nil {
			if r.err == io.EOF {
				r.d.wait(r.ctx, StdioDrainTimeout)
			}
			return 0, r.err
		}
		r.next()
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// next reads one line and either stages it in rest or refuses it.
func (r *lineReader) next() {
	r.line = r.line[:0]
	for {
		frag, err := r.in.ReadSlice('\n')
		if len(r.line)+len(frag) > r.max {
			r.refuseLong(frag, err)
			return
		}
		r.line = append(r.line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			r.err = err
		}
		break
	}
	body := bytes.TrimSpace(r.line)
	if len(body) == 0 {
		return
	}
	var m message
	if uerr := json.Unmarshal(body, &m); uerr != nil {
		code, msg := unreadable(body, uerr)
		r.refuse(body, code, msg)
		return
	}
	if m.Method != "" && m.hasID() {
		r.d.request()
	}
	r.rest = r.line
}

// refuseLong answers a line over the limit, then discards the rest of it.
func (r *lineReader) refuseLong(frag []byte, err error) {
	head := append(r.line, frag[:r.max-len(r.line)]...)
	r.line = head[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		frag, err = r.in.ReadSlice('\n')
		_ = frag
	}
	if err != nil {
		r.err = err
	}
	r.refuse(head, mcpgo.INVALID_REQUEST, fmt.Sprintf(
		"the message is longer than the limit of %d bytes and was not read; send a smaller request (the limit is serve --max-line-bytes)", r.max))
}

// unreadable is the JSON-RPC error of a line that does not decode as a
// message, in the protocol's words rather than the decoder's (which names
// Go types): a batch (MCP sends one message per line and no longer
// batches), JSON that is not an object, a member of the wrong type, or
// text that is not JSON at all.
func unreadable(body []byte, err error) (int, string) {
	var ute *json.UnmarshalTypeError
	switch {
	case body[0] == '[' && json.Valid(body):
		return mcpgo.INVALID_REQUEST, "a JSON-RPC batch (an array of messages) is not supported: send each message as its own line"
	case errors.As(err, &ute) && ute.Field != "":
		return mcpgo.INVALID_REQUEST, fmt.Sprintf("the message's %q member cannot be a JSON %s", ute.Field, ute.Value)
	case errors.As(err, &ute):
		return mcpgo.INVALID_REQUEST, fmt.Sprintf("a JSON-RPC message is a JSON object, not a JSON %s", ute.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return mcpgo.PARSE_ERROR, fmt.Sprintf("the message is not valid JSON (at byte %d: %s)", se.Offset, se.Error())
	}
	return mcpgo.PARSE_ERROR, "the message is not valid JSON-RPC: " + err.Error()
}

func (r *lineReader) refuse(head []byte, code int, msg string) {
	resp := map[string]any{"jsonrpc": "2.0", "id": requestID(head),
		"error": map[string]any{"code": code, "message": msg}}
	b, _ := json.Marshal(resp)
	r.out.writeRefusal(append(b, '\n'))
}

// requestID is the top-level "id" member at the start of a JSON-RPC
// message, read token by token so that a truncated or deeply nested rest
// does not matter, or nil when none is readable before the message ends
// or stops being JSON. Only a string or a number is an id.
func requestID(head []byte) any {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return nil
		}
		if name == "id" {
			id, err := dec.Token()
			if err != nil {
				return nil
			}
			switch id.(type) {
			case string, json.Number:
				return id
			}
			return nil
		}
		if skipValue(dec) != nil {
			return nil
		}
	}
	return nil
}

// skipValue reads one value's tokens, however deeply nested.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
