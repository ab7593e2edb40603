package traces

import (
	"context"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
)

// Recorder holds one request's trace while it runs. The engine fills T as
// its steps go; what may happen concurrently (model calls, scaling
// candidates, sub-queries) goes through Call and Update, which lock, and
// Snapshot reads it under the same lock.
type Recorder struct {
	mu sync.Mutex
	T  Trace
}

type recorderKey struct{}

// With returns ctx carrying r: the calls under ctx record into it.
func With(ctx context.Context, r *Recorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

// From is ctx's recorder; nil when the request records no trace.
func From(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

// Update changes the trace under the lock; nil-safe.
func (r *Recorder) Update(f func(t *Trace)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	f(&r.T)
	r.mu.Unlock()
}

// Snapshot is a copy of the trace so far.
func (r *Recorder) Snapshot() Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.T
}

// Call records one model call: the request (step, replay key, prompt and
// its hash), the answer or the error, and how long it took; nil-safe.
func (r *Recorder) Call(req llm.Request, resp *llm.Response, err error, took time.Duration) {
	if r == nil {
		return
	}
	c := ModelCall{Step: req.Step, Datasource: req.Datasource, Intent: req.Intent, Sample: req.Sample,
		PromptHash: req.PromptHash, Messages: req.Messages, MS: result.MS(took)}
	if resp != nil {
		c.Answer, c.Provider, c.Model, c.Usage = resp.Content, resp.Provider, resp.Model, resp.Usage
	}
	if err != nil {
		c.Error = err.Error()
	}
	r.Update(func(t *Trace) { t.ModelCalls = append(t.ModelCalls, c) })
}
