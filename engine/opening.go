package engine

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// CodeDatasourceIndexing: the datasource is still being opened (introspected,
// profiled, indexed); the same call succeeds once it is ready.
const CodeDatasourceIndexing Code = "DATASOURCE_INDEXING"

// maxConcurrentOpens bounds how many datasources are opened (profiled,
// indexed) at once: each open is CPU- and database-heavy, and the rest of
// the server must keep answering.
const maxConcurrentOpens = 2

// opening is one datasource's open in progress. Every caller that needs the
// datasource meanwhile waits on done (for at most Options.OpenWait), never
// on a lock another datasource holds.
type opening struct {
	done chan struct{}
	ds   *datasource // set before done is closed, nil on error
	err  error

	mu                 sync.Mutex
	stage              string // "opening", "profiling", "tables", "values"
	progress, of       int
	started, lastTouch time.Time
}

func (o *opening) report(stage string, done, total int) {
	o.mu.Lock()
	o.stage, o.progress, o.of, o.lastTouch = stage, done, total, time.Now()
	o.mu.Unlock()
}

// state describes how far the open got: "indexing: table 812 of 2000".
func (o *opening) state() (msg string, done, total int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch o.stage {
	case "tables":
		return fmt.Sprintf("indexing: table %d of %d", o.progress, o.of), o.progress, o.of
	case "values":
		return fmt.Sprintf("indexing values: column %d of %d", o.progress, o.of), o.progress, o.of
	case "":
		return "waiting for another datasource to finish opening", 0, 0
	}
	return o.stage, 0, 0
}

// await returns the opened datasource id, starting its open when nobody
// has. The open runs in its own goroutine, detached from ctx (a caller
// that gives up does not waste the work for the next one), at most
// maxConcurrentOpens at once. The caller waits for it until ctx ends, or
// for wait when wait > 0 — unless ctx reports waits (WithWaitProgress),
// which then wait until ctx ends, with a report about every half second.
// Giving up returns the retryable CodeDatasourceIndexing error, saying how
// far the open got.
func (e *Engine) await(ctx context.Context, id string, wait time.Duration) (*datasource, error) {
	spec := e.specs[id]
	e.mu.Lock()
	if ds, ok := e.open[id]; ok {
		e.mu.Unlock()
		return ds, nil
	}
	op, ok := e.opening[id]
	if !ok {
		if e.closed {
			e.mu.Unlock()
			return nil, Errorf(CodeCancelled, "", "the server is shutting down")
		}
		op = &opening{done: make(chan struct{}), started: time.Now()}
		e.opening[id] = op
		e.openers.Add(1)
		go e.runOpen(op, spec)
	}
	e.mu.Unlock()

	report, _ := ctx.Value(waitKey{}).(WaitFunc)
	var limit <-chan time.Time
	if wait > 0 && report == nil {
		t := time.NewTimer(wait)
		defer t.Stop()
		limit = t.C
	}
	var tick <-chan time.Time
	if report != nil {
		tk := time.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case <-op.done:
			return op.ds, op.err
		case <-tick:
			msg, done, total := op.state()
			report(fmt.Sprintf("datasource %s: %s", id, msg), done, total)
		case <-limit:
			return nil, indexingError(id, op)
		case <-ctx.Done():
			select {
			case <-op.done:
				return op.ds, op.err
			default:
			}
			return nil, indexingError(id, op)
		}
	}
}

func indexingError(id string, op *opening) *Error {
	msg, _, _ := op.state()
	return &Error{Code: CodeDatasourceIndexing, Retryable: true,
		Msg:  fmt.Sprintf("datasource %q is still being opened (%s, %s so far)", id, msg, time.Since(op.started).Round(time.Second)),
		Hint: "retry in a few seconds: the other datasources answer meanwhile; `nl2sql index` builds the index ahead of time, and a restart reuses it"}
}

// runOpen opens spec's datasource for op and publishes the result: the
// datasource joins e.open, or the error is handed to the waiters and the
// next call tries again. Close cancels its context and waits for it.
func (e *Engine) runOpen(op *opening, spec DatasourceSpec) {
	defer e.openers.Done()
	ctx := context.WithValue(e.stopCtx, openingKey{}, op)
	if err := e.opens.Acquire(ctx, 1); err == nil {
		op.report("opening", 0, 0)
		op.ds, op.err = e.openDatasource(ctx, spec)
		e.opens.Release(1)
	} else {
		op.err = err
	}
	e.mu.Lock()
	delete(e.opening, spec.ID)
	closed := e.closed
	if op.err == nil && !closed {
		e.open[spec.ID] = op.ds
	}
	e.mu.Unlock()
	if op.err == nil && closed { // the engine was closed meanwhile
		op.ds.close()
		op.ds, op.err = nil, Errorf(CodeCancelled, "", "the server is shutting down")
	}
	close(op.done)
}

type openingKey struct{}

// openProgress reports the open's progress, when ctx is an open's.
func openProgress(ctx context.Context, stage string, done, total int) {
	if op, ok := ctx.Value(openingKey{}).(*opening); ok {
		op.report(stage, done, total)
	}
}

// WaitFunc is told, while a request waits for a datasource to open, what
// it waits for ("datasource big: indexing: table 812 of 2000") and how far
// that got (done of total; 0 of 0 when unknown). It must not block.
type WaitFunc func(message string, done, total int)

type waitKey struct{}

// WithWaitProgress returns a context whose requests wait for a datasource
// still opening until ctx ends, reporting to f about every half second,
// instead of giving up after Options.OpenWait (the MCP tools set it when
// the client sent a progress token).
func WithWaitProgress(ctx context.Context, f WaitFunc) context.Context {
	return context.WithValue(ctx, waitKey{}, f)
}
