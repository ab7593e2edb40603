package opening

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// CodeIndexing: the datasource is still being opened (introspected,
// profiled, indexed); the same call succeeds once it is ready.
const CodeIndexing fault.Code = "DATASOURCE_INDEXING"

// MaxConcurrent bounds how many datasources are opened (profiled,
// indexed) at once: each open is CPU- and database-heavy, and the rest of
// the server must keep answering.
const MaxConcurrent = 2

// Set holds the datasources opened so far and the opens in progress, by
// id. Its lock is never held across I/O, so no datasource waits for
// another's open.
type Set[T any] struct {
	open    func(ctx context.Context, id string) (T, error)
	release func(T)

	mu      sync.Mutex
	ready   map[string]T
	running map[string]*op[T]
	// failed is the last open of each datasource that failed, until one
	// succeeds: a caller that would be told "still being opened" while
	// another attempt runs is told why the last one failed instead.
	failed map[string]failure
	closed bool
	// retired are values a renewal replaced, released after RetireAfter
	// (or at Close): calls still running on them finish first.
	retired map[*retiree[T]]struct{}
	// sem bounds the opens running at once (MaxConcurrent).
	sem *semaphore.Weighted
	// stop cancels the opens still running when the set closes, and wg
	// counts them, so Close returns only after every open stopped and the
	// caller may close the state store under none.
	stopCtx context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

// New returns an empty set whose opens call open (in their own goroutine,
// detached from any caller) and whose values opened after Close are
// handed to release.
func New[T any](open func(ctx context.Context, id string) (T, error), release func(T)) *Set[T] {
	s := &Set[T]{open: open, release: release, ready: map[string]T{}, running: map[string]*op[T]{}, failed: map[string]failure{},
		retired: map[*retiree[T]]struct{}{},
		sem:     semaphore.NewWeighted(MaxConcurrent)}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	return s
}

// op is one datasource's open in progress. Every caller that needs the
// datasource meanwhile waits on done (for at most its wait), never on a
// lock another datasource holds.
type op[T any] struct {
	done chan struct{}
	v    T // set before done is closed, the zero value on error
	err  error
	progress
}

// failure is an open that failed, and when.
type failure struct {
	err error
	at  time.Time
}

// progress is how far an open got.
type progress struct {
	mu                 sync.Mutex
	stage              string // "opening", "profiling", "tables", "values"
	done, of           int
	started, lastTouch time.Time
}

func (p *progress) report(stage string, done, total int) {
	p.mu.Lock()
	p.stage, p.done, p.of, p.lastTouch = stage, done, total, time.Now()
	p.mu.Unlock()
}

// state describes how far the open got: "indexing: table 812 of 2000".
func (p *progress) state() (msg string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.stage {
	case "tables":
		return fmt.Sprintf("indexing: table %d of %d", p.done, p.of), p.done, p.of
	case "values":
		return fmt.Sprintf("indexing values: column %d of %d", p.done, p.of), p.done, p.of
	case "":
		return "waiting for another datasource to finish opening", 0, 0
	}
	return p.stage, 0, 0
}

// Await returns the opened datasource id, starting its open when nobody
// has. The open runs in its own goroutine, detached from ctx (a caller
// that gives up does not waste the work for the next one), at most
// MaxConcurrent at once. The caller waits for it until ctx ends, or until
// wait has passed since the open started when wait > 0 (at once when it
// already has) — unless ctx reports waits (WithWaitProgress), which
// then wait until ctx ends, with a report about every half second. Giving
// up returns the retryable CodeIndexing error, saying how far the open got.
func (s *Set[T]) Await(ctx context.Context, id string, wait time.Duration) (T, error) {
	var zero T
	s.mu.Lock()
	if v, ok := s.ready[id]; ok {
		s.mu.Unlock()
		return v, nil
	}
	if _, ok := s.running[id]; !ok && s.closed {
		s.mu.Unlock()
		return zero, fault.Errorf(fault.CodeCancelled, "", "the server is shutting down")
	}
	op := s.start(id)
	s.mu.Unlock()
	return s.wait(ctx, id, op, wait)
}

// wait waits for op, the open of id, as Await describes.
func (s *Set[T]) wait(ctx context.Context, id string, op *op[T], wait time.Duration) (T, error) {
	var zero T
	report, _ := ctx.Value(waitKey{}).(WaitFunc)
	var limit <-chan time.Time
	if wait > 0 && report == nil {
		// the wait counts from the open's start, not the call's: an open
		// already past it is a long one, and a call (a listing above all)
		// should not pay a full wait each time it asks again
		left := wait - time.Since(op.started)
		if left <= 0 {
			select {
			case <-op.done:
				return op.v, op.err
			default:
				return zero, s.notYet(id, op)
			}
		}
		t := time.NewTimer(left)
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
			return op.v, op.err
		case <-tick:
			msg, done, total := op.state()
			report(fmt.Sprintf("datasource %s: %s", id, msg), done, total)
		case <-limit:
			return zero, s.notYet(id, op)
		case <-ctx.Done():
			select {
			case <-op.done:
				return op.v, op.err
			default:
			}
			return zero, s.notYet(id, op)
		}
	}
}

// start returns id's open in progress, starting one in its own goroutine
// when none runs. s.mu is held, and never across the open itself.
func (s *Set[T]) start(id string) *op[T] {
	if op, ok := s.running[id]; ok {
		return op
	}
	op := newOp[T]()
	s.running[id] = op
	s.wg.Add(1)
	go s.run(op, id)
	return op
}

func newOp[T any]() *op[T] {
	o := &op[T]{done: make(chan struct{})}
	o.started = time.Now()
	return o
}

// notYet is the answer to a caller that stops waiting for op: the last
// open's failure when one failed before (a server that accepts
// connections and never answers made every call say "still being opened,
// 1s so far" for minutes, the timeout only in the log), else the
// indexing error.
func (s *Set[T]) notYet(id string, op *op[T]) error {
	s.mu.Lock()
	f, failed := s.failed[id]
	s.mu.Unlock()
	if !failed {
		return indexingError(id, op)
	}
	last := fault.AsError(f.err)
	return &fault.Error{Code: last.Code, Retryable: true, Hint: last.Hint, Err: f.err,
		Msg: fmt.Sprintf("%s (the open failed %s ago; another attempt is running, %s so far)", last.Msg, time.Since(f.at).Round(time.Second), time.Since(op.started).Round(time.Second))}
}

func indexingError[T any](id string, op *op[T]) *fault.Error {
	msg, _, _ := op.state()
	return &fault.Error{Code: CodeIndexing, Retryable: true,
		Msg:  fmt.Sprintf("datasource %q is still being opened (%s, %s so far)", id, msg, time.Since(op.started).Round(time.Second)),
		Hint: "retry in a few seconds: the other datasources answer meanwhile; `nl2sql index` builds the index ahead of time, and a restart reuses it"}
}

// run opens datasource id for op and publishes the result: the datasource
// joins the ready ones, or the error is handed to the waiters and the next
// call tries again. Close cancels its context and waits for it.
func (s *Set[T]) run(op *op[T], id string) {
	defer s.wg.Done()
	ctx := context.WithValue(s.stopCtx, progressKey{}, &op.progress)
	if err := s.sem.Acquire(ctx, 1); err == nil {
		op.report("opening", 0, 0)
		op.v, op.err = s.open(ctx, id)
		s.sem.Release(1)
	} else {
		op.err = err
	}
	s.mu.Lock()
	delete(s.running, id)
	closed := s.closed
	if op.err != nil && !closed {
		s.failed[id] = failure{op.err, time.Now()}
	}
	if op.err == nil {
		delete(s.failed, id)
	}
	if op.err == nil && !closed {
		if old, renewed := s.ready[id]; renewed {
			s.retire(old)
		}
		s.ready[id] = op.v
	}
	s.mu.Unlock()
	if op.err == nil && closed { // the set was closed meanwhile
		s.release(op.v)
		var zero T
		op.v, op.err = zero, fault.Errorf(fault.CodeCancelled, "", "the server is shutting down")
	}
	close(op.done)
}

// Ready returns datasource id when it is open, without starting an open
// or waiting for one: for looking at what is there, never for answering.
func (s *Set[T]) Ready(id string) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.ready[id]
	return v, ok
}

// Failed returns why the last open of datasource id failed, nil when it
// is open, is being opened for the first time or was never asked for;
// like Ready it starts nothing and waits for nothing: for not pointing a
// caller at a datasource that is down, never for answering.
func (s *Set[T]) Failed(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ready[id]; ok {
		return nil
	}
	if f, ok := s.failed[id]; ok {
		return f.err
	}
	return nil
}

// Forget drops datasource id from the ready ones (the next Await opens it
// afresh) and returns it, for the caller to close.
func (s *Set[T]) Forget(id string) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.ready[id]
	delete(s.ready, id)
	return v, ok
}

// Drop takes datasource id out of the ready ones and releases it (a
// source's close waits for the statements running on it to end), so the
// next Await opens it afresh: for a source whose file is gone, on
// whose path a new file may appear, which DuckDB would not open while the
// old handle is (it opens a path once per process).
func (s *Set[T]) Drop(id string) {
	s.mu.Lock()
	v, ok := s.ready[id]
	delete(s.ready, id)
	s.mu.Unlock()
	if ok {
		s.release(v)
	}
}

// Reopen releases datasource id at once, calls still running on it
// failing, and opens it afresh as Await does: for a source whose new
// state cannot be opened while the old one is (DuckDB opens a path once
// per process). A renewal already running is waited for instead.
func (s *Set[T]) Reopen(ctx context.Context, id string, wait time.Duration) (T, error) {
	s.mu.Lock()
	v, ok := s.ready[id]
	_, running := s.running[id]
	if ok && !running {
		delete(s.ready, id)
	}
	s.mu.Unlock()
	if ok && !running {
		s.release(v)
	}
	return s.Await(ctx, id, wait)
}

// Close cancels the opens still running and waits for them (a server
// stopped seconds after it started must not leave an open writing to a
// state store its caller closes next), then hands back every opened
// datasource, by id, for the caller to close. Await refuses from then on.
func (s *Set[T]) Close() map[string]T {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.wg.Wait()
	s.mu.Lock()
	out := s.ready
	s.ready = map[string]T{}
	retired := s.retired
	s.retired = map[*retiree[T]]struct{}{}
	s.mu.Unlock()
	for r := range retired {
		s.release(r.v)
	}
	return out
}

// RetireAfter is how long a value a renewal replaced stays open: calls
// that took it before the swap run to their end (a statement's timeout is
// 30 seconds unless configured longer).
var RetireAfter = 2 * time.Minute

type retiree[T any] struct{ v T }

// retire releases old after RetireAfter, or at Close. s.mu is held.
func (s *Set[T]) retire(old T) {
	r := &retiree[T]{v: old}
	s.retired[r] = struct{}{}
	time.AfterFunc(RetireAfter, func() {
		s.mu.Lock()
		_, still := s.retired[r]
		delete(s.retired, r)
		s.mu.Unlock()
		if still {
			s.release(r.v)
		}
	})
}

// Renew opens id again while the opened value goes on answering (a
// renewal already running is joined, never doubled) and waits for it as
// Await waits for a first open. It returns the newest value: the renewed
// one when it is ready in time, else the one it will replace, which a
// failed renewal leaves in place, then with a *RenewError that says why
// it failed (a caller that must not answer from the old value can tell
// a failure from a renewal still running). An id not opened yet is
// opened as by Await.
func (s *Set[T]) Renew(ctx context.Context, id string, wait time.Duration) (T, error) {
	s.mu.Lock()
	old, opened := s.ready[id]
	if !opened || s.closed {
		s.mu.Unlock()
		return s.Await(ctx, id, wait)
	}
	op := s.start(id)
	s.mu.Unlock()
	v, err := s.wait(ctx, id, op, wait)
	if err == nil {
		return v, nil
	}
	var failed error
	select {
	case <-op.done:
		failed = &RenewError{Err: op.err}
	default: // still running
	}
	if v, ok := s.Ready(id); ok {
		return v, failed
	}
	return old, failed
}

// RenewError is a renewal that failed: the value it would have replaced
// is still the opened one.
type RenewError struct{ Err error }

func (e *RenewError) Error() string { return "the renewal failed: " + e.Err.Error() }

func (e *RenewError) Unwrap() error { return e.Err }

// RenewLater starts opening id again, as Renew does, without waiting for
// it: the opened value is good enough meanwhile (its profile is old, its
// schema is not).
func (s *Set[T]) RenewLater(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, opened := s.ready[id]; opened && !s.closed {
		s.start(id)
	}
}

// Renewing reports whether id is being opened again while an opened value
// answers: what that value knows of the datasource may be out of date.
func (s *Set[T]) Renewing(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, running := s.running[id]
	_, opened := s.ready[id]
	return running && opened
}

// Running is how many opens are in progress.
func (s *Set[T]) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.running)
}

type progressKey struct{}

// Progress reports the open's progress, when ctx is an open's.
func Progress(ctx context.Context, stage string, done, total int) {
	if p, ok := ctx.Value(progressKey{}).(*progress); ok {
		p.report(stage, done, total)
	}
}

// WaitFunc is told, while a request waits for a datasource to open, what
// it waits for ("datasource big: indexing: table 812 of 2000") and how far
// that got (done of total; 0 of 0 when unknown). It must not block.
type WaitFunc func(message string, done, total int)

type waitKey struct{}

// WithWaitProgress returns a context whose requests wait for a datasource
// still opening until ctx ends, reporting to f about every half second,
// instead of giving up after their wait (the MCP tools set it when the
// client sent a progress token).
func WithWaitProgress(ctx context.Context, f WaitFunc) context.Context {
	return context.WithValue(ctx, waitKey{}, f)
}

// NoWaitProgress undoes WithWaitProgress for requests under ctx: they give
// up after their wait again (listing never waits for an open).
func NoWaitProgress(ctx context.Context) context.Context {
	return context.WithValue(ctx, waitKey{}, WaitFunc(nil))
}
