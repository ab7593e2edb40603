package engine

import (
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
	"github.com/nl2sql/nl2sql/engine/store"
	"github.com/nl2sql/nl2sql/index"
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

// writeTrace stores the trace as TraceDir/ID.json. Failures are logged,
// never returned: a trace must not fail the request it describes.
func (e *Engine) writeTrace(tr *traceRec, err error) {
	if e.opts.TraceDir == "" || tr == nil {
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
	b, merr := json.MarshalIndent(t, "", "  ")
	if merr != nil {
		e.log.Warn("cannot encode trace", "err", merr)
		return
	}
	if werr := os.MkdirAll(e.opts.TraceDir, 0o755); werr == nil {
		werr = os.WriteFile(filepath.Join(e.opts.TraceDir, t.ID+".json"), b, 0o644)
		if werr != nil {
			e.log.Warn("cannot write trace", "code", storageCode(werr), "id", t.ID, "err", werr)
		}
	} else {
		e.log.Warn("cannot create the trace directory", "code", storageCode(werr), "err", werr)
	}
	e.indexTrace(t)
}

// traceIndex is the state store's trace index (engine/store: PutTrace),
// declared here where it is used; a store without one indexes nothing.
type traceIndex interface {
	PutTrace(ctx context.Context, id string, createdAt time.Time, summary []byte) error
}

// TraceIndexTimeout bounds indexing one trace in the state store.
const TraceIndexTimeout = 2 * time.Second

// indexTrace puts the whole trace (compact JSON) in the state store's
// trace index, so that with a shared store (PostgreSQL) any replica finds
// a trace another served (see app.ReadTrace). A failure is logged with its
// storage code; the request's result is not affected.
func (e *Engine) indexTrace(t Trace) {
	ix, ok := e.opts.Store.(traceIndex)
	if !ok || ix == nil {
		return
	}
	b, err := json.Marshal(t)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), TraceIndexTimeout)
	defer cancel()
	if err := ix.PutTrace(ctx, t.ID, t.CreatedAt, b); err != nil {
		code := "STORE_UNAVAILABLE"
		var se *store.Error
		if errors.As(err, &se) {
			code = se.Code
		}
		e.log.Warn("cannot index the trace in the state store", "code", code, "id", t.ID, "err", err)
	}
}

var traceIDRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ReadTrace loads a stored trace by id.
func ReadTrace(dir, id string) (*Trace, error) {
	if !traceIDRe.MatchString(id) {
		return nil, Errorf(CodeInvalidRequest, "trace ids are 32 hex characters, as printed in trace_id", "%q is not a trace id", id)
	}
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
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
