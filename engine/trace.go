package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/dayfile"
	"github.com/nl2sql/nl2sql/internal/store"
)

// Trace records one request for later inspection and replay: the steps
// with their timings, every model call (prompt text and hash, answer), the
// refused attempts, the SQL and the outcome. It holds no secrets: prompts
// carry the schema context and the question, never configuration.
type Trace struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	Question   string    `json:"question"`
	Datasource string    `json:"datasource,omitempty"`
	Today      string    `json:"today"`
	// Retrieved is what retrieval selected for the prompt.
	Retrieved  *index.Selection `json:"retrieved,omitempty"`
	ModelCalls []ModelCall      `json:"model_calls"`
	Rejected   []Attempt        `json:"rejected_attempts"`
	PlanSource string           `json:"plan_source,omitempty"`
	// VerifiedFallback says why a matching verified query did not answer.
	VerifiedFallback string  `json:"verified_fallback,omitempty"`
	SQL              string  `json:"sql,omitempty"`
	RowCount         int     `json:"row_count"`
	Timings          Timings `json:"timings"`
	// Scaling is the test-time scaling report: buckets, agreeing
	// strategies, selection and usage per stage (absent when off).
	Scaling *ScaleReport `json:"scaling,omitempty"`
	Error   *TraceError  `json:"error,omitempty"`
}

// ModelCall is one structured model call of a trace.
type ModelCall struct {
	Step       string          `json:"step"`
	Datasource string          `json:"datasource"`
	Intent     string          `json:"intent"`
	Sample     int             `json:"sample"`
	PromptHash string          `json:"prompt_sha256"`
	Messages   []llm.Message   `json:"messages"`
	Answer     json.RawMessage `json:"answer,omitempty"`
	Error      string          `json:"error,omitempty"`
	Provider   string          `json:"provider,omitempty"`
	Model      string          `json:"model,omitempty"`
	Usage      llm.Usage       `json:"usage"`
	MS         float64         `json:"ms"`
}

// TraceError is the error a traced request ended with.
type TraceError struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

type traceKey struct{}

// traceRec collects a trace during one request; safe for concurrent calls.
type traceRec struct {
	mu sync.Mutex
	t  Trace
}

func withTrace(ctx context.Context, tr *traceRec) context.Context {
	return context.WithValue(ctx, traceKey{}, tr)
}

func traceFrom(ctx context.Context) *traceRec {
	tr, _ := ctx.Value(traceKey{}).(*traceRec)
	return tr
}

func (tr *traceRec) call(c ModelCall) {
	if tr == nil {
		return
	}
	tr.mu.Lock()
	tr.t.ModelCalls = append(tr.t.ModelCalls, c)
	tr.mu.Unlock()
}

// redact masks credentials a question or an error message may carry.
func redact(s string) string { return fault.Redact(s) }

// TraceRetention bounds the trace files under TraceDir (config keys
// storage.traces.max_age_days and max_mb); zero fields mean no bound.
type TraceRetention struct {
	MaxAge   time.Duration
	MaxBytes int64
	// Queue is how many traces may wait for the writer (dayfile's default
	// when 0); more are dropped and counted, never waited for.
	Queue int
}

// traceFilePrefix names the day files: TraceDir/traces-YYYY-MM-DD.jsonl,
// one compact JSON trace per line.
const traceFilePrefix = "traces"

// openTraces starts the background trace writer (nil without TraceDir).
func (e *Engine) openTraces() *dayfile.Writer {
	if e.opts.TraceDir == "" {
		return nil
	}
	r := e.opts.TraceRetention
	return dayfile.Open(e.opts.TraceDir, traceFilePrefix, dayfile.Options{MaxAge: r.MaxAge, MaxBytes: r.MaxBytes,
		Queue: r.Queue, Logger: e.log, Code: storageCode, OnBatch: e.indexTraces, OnPrune: e.pruneTraceIndex, Open: e.opts.traceOpen,
		Linger: traceLinger})
}

// traceLinger is how long the trace writer gathers traces into one append
// and one state-store transaction: a transaction per trace or two was a
// tenth of a run_plan's CPU under load. Readers that need the traces of
// answered requests call FlushTraces, which ends the wait.
const traceLinger = 20 * time.Millisecond

// TraceFlushTimeout bounds FlushTraces.
const TraceFlushTimeout = 5 * time.Second

// FlushTraces waits (at most TraceFlushTimeout) until the traces of the
// requests answered so far are written and indexed.
func (e *Engine) FlushTraces() {
	if e.traces != nil {
		e.traces.Flush(TraceFlushTimeout)
	}
}

// TracesDropped is how many traces were lost: the writer's queue was full
// or the disk refused them.
func (e *Engine) TracesDropped() int64 {
	if e.traces == nil {
		return 0
	}
	return e.traces.Dropped()
}

// writeTrace queues the trace for the background writer, which appends it
// to the day's file and indexes it in the state store. It never waits for
// the disk: a trace must not slow or fail the request it describes.
func (e *Engine) writeTrace(tr *traceRec, err error) {
	if e.traces == nil || tr == nil {
		return
	}
	tr.mu.Lock()
	t := tr.t
	tr.mu.Unlock()
	if err != nil {
		ee := AsError(err)
		t.Error = &TraceError{Code: ee.Code, Message: redact(ee.Msg)}
	}
	for i := range t.ModelCalls {
		t.ModelCalls[i].Error = redact(t.ModelCalls[i].Error)
	}
	if t.ModelCalls == nil {
		t.ModelCalls = []ModelCall{}
	}
	if t.Rejected == nil {
		t.Rejected = []Attempt{}
	}
	b, merr := json.Marshal(t)
	if merr != nil {
		e.log.Warn("cannot encode trace", "err", merr)
		return
	}
	e.traces.Write(t.CreatedAt, append(b, '\n'))
}

// traceIndex is the state store's trace index (internal/store: PutTraces),
// declared here where it is used; a store without one indexes nothing.
type traceIndex interface {
	PutTraces(ctx context.Context, traces []store.TraceEntry) error
}

// TraceIndexTimeout bounds indexing one batch of traces in the state store.
const TraceIndexTimeout = 2 * time.Second

// indexTraces puts a batch of traces (compact JSON lines) in the state
// store's trace index in one transaction, so that with a shared store
// (PostgreSQL) any replica finds a trace another served (see
// app.ReadTrace). It runs on the trace writer's goroutine; a failure is
// logged with its storage code and no request is affected.
func (e *Engine) indexTraces(lines [][]byte) {
	ix, ok := e.opts.Store.(traceIndex)
	if !ok || ix == nil {
		return
	}
	rows := make([]store.TraceEntry, 0, len(lines))
	for _, l := range lines {
		var head struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"created_at"`
		}
		if json.Unmarshal(l, &head) != nil {
			continue
		}
		rows = append(rows, store.TraceEntry{ID: head.ID, CreatedAt: head.CreatedAt, Summary: bytes.TrimSpace(l)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), TraceIndexTimeout)
	defer cancel()
	if err := ix.PutTraces(ctx, rows); err != nil {
		code := "STORE_UNAVAILABLE"
		var se *store.Error
		if errors.As(err, &se) {
			code = se.Code
		}
		e.log.Warn("cannot index traces in the state store", "code", code, "traces", len(rows), "err", err)
	}
}

// tracePruner is the state store's trace index retention.
type tracePruner interface {
	PruneTraces(ctx context.Context, cutoff time.Time) (int, error)
}

// pruneTraceIndex drops index rows older than the files' age bound.
func (e *Engine) pruneTraceIndex(cutoff time.Time) {
	p, ok := e.opts.Store.(tracePruner)
	if !ok || p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), TraceIndexTimeout)
	defer cancel()
	if _, err := p.PruneTraces(ctx, cutoff); err != nil {
		e.log.Warn("cannot prune the trace index", "err", err)
	}
}

var traceIDRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ReadTrace loads a stored trace by id from dir: the day files
// (traces-YYYY-MM-DD.jsonl, newest first), or an ID.json file of the
// earlier one-file-per-trace layout.
func ReadTrace(dir, id string) (*Trace, error) {
	if !traceIDRe.MatchString(id) {
		return nil, Errorf(CodeInvalidRequest, "trace ids are 32 hex characters, as printed in trace_id", "%q is not a trace id", id)
	}
	b, err := findTrace(dir, id)
	if errors.Is(err, os.ErrNotExist) {
		return nil, Errorf(CodeInvalidRequest, "traces live under storage.path/traces", "there is no trace %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read trace %s: %w", id, err)
	}
	var t Trace
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("trace %s is malformed: %w", id, err)
	}
	return &t, nil
}

// findTrace returns the JSON of trace id, or an error wrapping
// os.ErrNotExist.
func findTrace(dir, id string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if !errors.Is(err, os.ErrNotExist) {
		return b, err
	}
	files, err := dayfile.Files(dir, traceFilePrefix)
	if err != nil {
		return nil, err
	}
	head := []byte(`{"id":"` + id + `"`)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		r := bufio.NewReaderSize(f, 1<<16)
		for {
			line, rerr := r.ReadBytes('\n')
			if bytes.HasPrefix(line, head) {
				f.Close()
				return line, nil
			}
			if rerr != nil {
				break
			}
		}
		f.Close()
	}
	return nil, os.ErrNotExist
}

// TracePlanner replays the model answers a trace recorded, keyed like the
// replay provider, so `nl2sql trace replay ID` reruns the question with
// exactly the answers it had.
type TracePlanner struct {
	calls map[string]ModelCall
}

// NewTracePlanner builds a planner from a trace's model calls.
func NewTracePlanner(t *Trace) *TracePlanner {
	p := &TracePlanner{calls: map[string]ModelCall{}}
	for _, c := range t.ModelCalls {
		if c.Error == "" {
			p.calls[llm.Key(c.Step, c.Datasource, c.Intent, c.Sample)] = c
		}
	}
	return p
}

// Complete answers from the trace, or fails naming the missing call.
func (p *TracePlanner) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	c, ok := p.calls[llm.Key(req.Step, req.Datasource, req.Intent, req.Sample)]
	if !ok {
		return nil, &llm.NoRecordingError{Step: req.Step, Datasource: req.Datasource, Intent: req.Intent, Sample: req.Sample}
	}
	return &llm.Response{Content: c.Answer, Usage: c.Usage, Provider: "trace", Model: c.Model}, nil
}

// storageCode classifies a file-system error under storage.path with the
// state store's codes, so every storage warning carries one.
func storageCode(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "STORE_FULL"
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return "STORE_READ_ONLY"
	}
	return "STORE_UNAVAILABLE"
}
