package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// StdioDrainTimeout bounds how long stdio serving waits, once its input has
// ended, for the answers to requests it has already read (a client that
// pipes its requests in and closes stdin still gets every answer; the
// engine's own request timeout is 2 minutes).
const StdioDrainTimeout = 3 * time.Minute

// drain pairs the requests read from stdin with the responses written to
// stdout, so that the end of input can wait for what is still owed. mcp-go's
// stdio server cancels in-flight handlers as soon as its reader reports
// EOF; lineReader (stdio_lines.go) holds the EOF back until every request read has its
// response, ctx ends, or StdioDrainTimeout passes.
type drain struct {
	mu        sync.Mutex
	requests  int
	responses int
	changed   chan struct{} // closed and replaced on every response
	outBuf    []byte
}

func newDrain() *drain { return &drain{changed: make(chan struct{})} }

// message is the part of a JSON-RPC message that tells requests from
// responses: a request has a method and an id; a response an id and no
// method.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (m message) hasID() bool {
	id := bytes.TrimSpace(m.ID)
	return len(id) > 0 && !bytes.Equal(id, []byte("null"))
}

// lines splits complete lines off buf, returning them and the rest.
func lines(buf []byte) ([][]byte, []byte) {
	var out [][]byte
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return out, buf
		}
		out = append(out, buf[:i])
		buf = buf[i+1:]
	}
}

// request counts one request read (lineReader sees whole lines).
func (d *drain) request() {
	d.mu.Lock()
	d.requests++
	d.mu.Unlock()
}

// sawOutput counts the responses (an id and no method) in p.
func (d *drain) sawOutput(p []byte) {
	d.saw(&d.outBuf, p, func(m message) bool { return m.Method == "" && m.hasID() }, func() {
		d.responses++
		close(d.changed)
		d.changed = make(chan struct{})
	})
}

// saw adds p to buf and calls count, under the lock, for each complete
// line that is a JSON-RPC message matching is.
func (d *drain) saw(buf *[]byte, p []byte, is func(message) bool, count func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ls [][]byte
	ls, *buf = lines(append(*buf, p...))
	for _, l := range ls {
		var m message
		if json.Unmarshal(l, &m) == nil && is(m) {
			count()
		}
	}
}

// wait returns when every request read has been answered, ctx ends, or
// the timeout passes.
func (d *drain) wait(ctx context.Context, timeout time.Duration) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		d.mu.Lock()
		done, changed := d.responses >= d.requests, d.changed
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		}
	}
}

// stdioWriter serialises everything written to stdout: mcp-go's answers
// (counted for the drain) and lineReader's refusals (answers to lines
// mcp-go never saw, so not counted).
type stdioWriter struct {
	mu sync.Mutex
	w  io.Writer
	d  *drain
}

func (w *stdioWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(fixInvalidParams(p))
	if n > 0 {
		w.d.sawOutput(p[:n])
	}
	return n, err
}

func (w *stdioWriter) writeRefusal(p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.w.Write(p)
}
