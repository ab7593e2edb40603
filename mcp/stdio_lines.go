package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sql/nl2sql/internal/jsontext"
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
// are JSON-RPC errors carrying the request id wherever the line puts it
// (idScanner reads every byte of the line, the discarded ones included:
// the TypeScript SDK writes "id" last, and a refusal with a null id leaves
// its client waiting for its timeout), written through the same
// serialised writer as mcp-go's answers. Memory stays within max plus the
// read buffer, time is linear in the input, and the next line is served
// as usual.
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
		if need := len(r.line) + len(frag); need > cap(r.line) {
			// double, up to the limit: append grows a large slice by about
			// a quarter at a time, which copied a line near the limit
			// several times over
			r.line = append(make([]byte, 0, min(r.max, 2*need)), r.line...)
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
		r.refuse(requestID(body), code, msg)
		return
	}
	if at, what, ok := jsontext.Bad(body); !ok {
		r.refuse(requestID(body), mcpgo.INVALID_REQUEST, badTextMessage(at, what))
		return
	}
	if m.Method != "" && m.hasID() {
		r.d.request()
	}
	r.rest = r.line
}

// refuseLong answers a line over the limit, with the id found in all of
// it, once the rest of it is read and discarded.
func (r *lineReader) refuseLong(frag []byte, err error) {
	var ids idScanner
	ids.Write(r.line)
	ids.Write(frag)
	r.line = r.line[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		frag, err = r.in.ReadSlice('\n')
		ids.Write(frag)
	}
	if err != nil {
		r.err = err
	}
	r.refuse(ids.ID(), mcpgo.INVALID_REQUEST, tooLong(int64(r.max)))
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

func (r *lineReader) refuse(id any, code int, msg string) {
	resp := map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg}}
	b, _ := json.Marshal(resp)
	r.out.writeRefusal(append(b, '\n'))
}

// requestID is the id of a JSON-RPC message (idScanner), or nil.
func requestID(msg []byte) any {
	var ids idScanner
	ids.Write(msg)
	return ids.ID()
}

// maxIDBytes bounds the id a refusal carries back; a longer one is no id
// (memory stays bounded whatever the line holds).
const maxIDBytes = 256

// maxNameBytes bounds a top-level member name as written: room for "id"
// spelt with \u escapes, which is all the scanner needs to recognise.
const maxNameBytes = 32

// where the scanner is in the top-level object, between its members
type memberState uint8

const (
	beforeName  memberState = iota // after '{' or ','
	inName                         // inside the member's name
	afterName                      // before the ':'
	beforeValue                    // after the ':'
	inValue                        // from the value's first byte to the ',' or '}' after it
)

// idScanner finds the top-level "id" member of a JSON-RPC message written
// to it in pieces of any size, holding none of them: it follows string and
// escape state and nesting depth, so an "id" inside params (or inside a
// string) is not taken, and it keeps only a member name and the id's
// value, each capped. It does not validate the JSON: for text that is not
// a message it finds what it can, and nothing where the top level is not
// an object. When the id appears more than once the last one counts, as
// in encoding/json.
type idScanner struct {
	started, done bool // the first byte was seen; the top-level value ended (or is not an object)
	depth         int
	inStr, esc    bool
	at            memberState
	isID          bool   // the member being read is "id"
	name          []byte // the member name as written, quotes included (capped)
	val           []byte // the "id" member's value as written (capped)
	over          bool   // name or val went past its cap
	id            any    // the last complete id: a string or a json.Number
}

// Write scans p; it never fails.
func (s *idScanner) Write(p []byte) (int, error) {
	for i := 0; i < len(p) && !s.done; i++ {
		if s.inStr && !s.esc && !s.keeping() {
			// inside a string nothing but a quote or a backslash matters:
			// skip to the next one (a long argument is most of the line)
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				break
			}
			i += j
		}
		s.step(p[i])
	}
	return len(p), nil
}

// ID is the top-level id found so far, or nil.
func (s *idScanner) ID() any { return s.id }

func (s *idScanner) step(c byte) {
	if s.inStr {
		s.keep(c)
		switch {
		case s.esc:
			s.esc = false
		case c == '\\':
			s.esc = true
		case c == '"':
			s.inStr = false
			if s.depth == 1 && s.at == inName {
				s.at = afterName
				s.isID = s.nameIsID()
			}
		}
		return
	}
	switch c {
	case ' ', '\t', '\r', '\n':
		return
	}
	if !s.started {
		s.started, s.done = true, c != '{'
	}
	if s.depth == 1 {
		switch {
		case s.at == inValue && (c == ',' || c == '}'):
			s.endValue()
		case s.at == beforeName && c == '"':
			s.at, s.name, s.over = inName, s.name[:0], false
		case s.at == afterName && c == ':':
			s.at = beforeValue
			return
		case s.at == beforeValue:
			s.at, s.val, s.over = inValue, s.val[:0], false
		}
	}
	s.keep(c)
	switch c {
	case '"':
		s.inStr = true
	case '{', '[':
		s.depth++
	case '}', ']':
		s.depth--
		s.done = s.depth <= 0
	}
}

// keeping reports whether the byte at hand belongs to a member name or to
// the id's value.
func (s *idScanner) keeping() bool {
	return s.at == inName || (s.at == inValue && s.isID)
}

func (s *idScanner) keep(c byte) {
	switch {
	case !s.keeping():
	case s.at == inName && len(s.name) < maxNameBytes:
		s.name = append(s.name, c)
	case s.at == inValue && len(s.val) < maxIDBytes:
		s.val = append(s.val, c)
	default:
		s.over = true
	}
}

func (s *idScanner) nameIsID() bool {
	var name string
	return !s.over && json.Unmarshal(s.name, &name) == nil && name == "id"
}

// endValue ends a top-level member. An "id" member sets the id: its
// value when that is a whole string or number within the cap, else none.
func (s *idScanner) endValue() {
	isID, over := s.isID, s.over
	s.at, s.isID = beforeName, false
	if !isID {
		return
	}
	s.id = nil
	if over {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(s.val))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return
	}
	switch v.(type) {
	case string, json.Number:
		s.id = v
	}
}
