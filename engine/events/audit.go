package events

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// AuditQueue is how many audit lines may wait for the writer; more are
// dropped and counted (Dropped), never waited for.
const AuditQueue = 1024

// Audit writes one JSON line per finished run (run.finished) to
// dir/audit-YYYY-MM-DD.jsonl, from a bounded queue on its own goroutine.
// The line carries the run.finished fields (never rows) plus "time".
type Audit struct {
	dir     string
	queue   chan Envelope
	dropped atomic.Int64
	log     *slog.Logger
	done    chan struct{}
	once    sync.Once
	code    func(error) string
}

// OpenAudit starts an audit writer into dir (created 0700). code
// classifies write errors for the warnings (store.CodeOf: STORE_FULL,
// STORE_READ_ONLY, …); nil reports them as STORE_UNAVAILABLE.
func OpenAudit(dir string, logger *slog.Logger, code func(error) string) (*Audit, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if logger == nil {
		logger = slog.Default()
	}
	if code == nil {
		code = func(error) string { return "STORE_UNAVAILABLE" }
	}
	a := &Audit{dir: dir, queue: make(chan Envelope, AuditQueue), log: logger, done: make(chan struct{}), code: code}
	go a.run()
	return a, nil
}

// Observe queues run.finished events; it never blocks.
func (a *Audit) Observe(_ context.Context, ev Envelope) {
	if ev.Name != NameRunFinished {
		return
	}
	select {
	case a.queue <- ev:
	default:
		a.dropped.Add(1)
	}
}

// Dropped is how many lines were lost: the queue was full or the write
// failed.
func (a *Audit) Dropped() int64 { return a.dropped.Load() }

// Close flushes the queue and stops the writer.
func (a *Audit) Close() error {
	a.once.Do(func() { close(a.queue) })
	<-a.done
	if n := a.Dropped(); n > 0 {
		a.log.Warn("audit lines lost (queue full or write failed)", "lost", n)
	}
	return nil
}

// run writes the queued lines through a buffer flushed whenever the queue
// is empty, so a burst of runs costs one write, not one each.
func (a *Audit) run() {
	defer close(a.done)
	var f *os.File
	var w *bufio.Writer
	var day string
	pending := 0
	flush := func() {
		if w == nil || pending == 0 {
			return
		}
		if err := w.Flush(); err != nil {
			a.log.Warn("audit lines not written", "code", a.code(err), "lines", pending, "err", err)
			a.dropped.Add(int64(pending))
			w.Reset(f)
		}
		pending = 0
	}
	defer func() {
		flush()
		if f != nil {
			f.Close()
		}
	}()
	for ev := range a.queue {
		d := ev.Time.Format("2006-01-02")
		if d != day {
			flush()
			if f != nil {
				f.Close()
			}
			var err error
			f, err = os.OpenFile(filepath.Join(a.dir, "audit-"+d+".jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				a.log.Warn("audit log unwritable", "code", a.code(err), "err", err)
				f, w, day = nil, nil, ""
				a.dropped.Add(1)
				continue
			}
			w, day = bufio.NewWriter(f), d
		}
		line, err := auditLine(ev)
		if err != nil {
			a.log.Warn("audit line not written", "code", a.code(err), "err", err)
			a.dropped.Add(1)
		} else if _, err := w.Write(line); err != nil {
			a.log.Warn("audit lines not written", "code", a.code(err), "lines", pending+1, "err", err)
			a.dropped.Add(int64(pending + 1))
			pending = 0
			w.Reset(f)
		} else {
			pending++
		}
		if len(a.queue) == 0 {
			flush()
		}
	}
}

// auditLine is {"time": …, "event": "run.finished", …fields}: the two keys
// lead, then the event's own fields in their declared order (decoding the
// event into a map to add the two was most of the audit writer's CPU).
func auditLine(ev Envelope) ([]byte, error) {
	b, err := json.Marshal(ev.Event)
	if err != nil {
		return nil, err
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, fmt.Errorf("audit event %s is not a JSON object", ev.Name)
	}
	name, _ := json.Marshal(ev.Name)
	out := make([]byte, 0, len(b)+len(name)+64)
	out = append(out, `{"time":"`...)
	out = ev.Time.AppendFormat(out, "2006-01-02T15:04:05.000Z07:00")
	out = append(out, `","event":`...)
	out = append(out, name...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, b[1:]...)
	return append(out, '\n'), nil
}
