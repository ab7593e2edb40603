package engine

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/traces"
	"github.com/nl2sql/nl2sql/internal/dayfile"
)

// Trace records one request for later inspection and replay
// (engine/traces).
type Trace = traces.Trace

// ModelCall is one structured model call of a trace (engine/traces).
type ModelCall = traces.ModelCall

// TraceError is the error a traced request ended with.
type TraceError = traces.Error

// traceRec collects a trace during one request (engine/traces); safe for
// concurrent calls.
type traceRec = traces.Recorder

func withTrace(ctx context.Context, tr *traceRec) context.Context { return traces.With(ctx, tr) }

func traceFrom(ctx context.Context) *traceRec { return traces.From(ctx) }

// redact masks credentials a question or an error message may carry.
func redact(s string) string { return fault.Redact(s) }

// TraceRetention bounds the trace files under TraceDir (config keys
// storage.traces.max_age_days and max_mb; engine/traces); zero fields mean
// no bound.
type TraceRetention = traces.Retention

// openTraces starts the background trace writer (nil without TraceDir):
// the day files and their index in the state store (engine/traces).
func (e *Engine) openTraces() *dayfile.Writer {
	if e.opts.TraceDir == "" {
		return nil
	}
	return traces.Open(e.opts.TraceDir, e.opts.TraceRetention, e.opts.Store, e.log, e.opts.traceOpen)
}

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
	t := tr.Snapshot()
	b, merr := traces.Encode(t, err)
	if merr != nil {
		e.log.Warn("cannot encode trace", "err", merr)
		return
	}
	e.traces.Write(t.CreatedAt, append(b, '\n'))
}

// ReadTrace loads a stored trace by id from dir: the day files
// (traces-YYYY-MM-DD.jsonl, newest first), or an ID.json file of the
// earlier one-file-per-trace layout.
func ReadTrace(dir, id string) (*Trace, error) { return traces.Read(dir, id) }

// TracePlanner replays the model answers a trace recorded, keyed like the
// replay provider, so `nl2sql trace replay ID` reruns the question with
// exactly the answers it had (engine/traces).
type TracePlanner = traces.Planner

// NewTracePlanner builds a planner from a trace's model calls.
func NewTracePlanner(t *Trace) *TracePlanner { return traces.NewPlanner(t.ModelCalls) }
