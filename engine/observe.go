package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/extend"
	"github.com/nl2sql/nl2sql/engine/spans"
	"github.com/nl2sql/nl2sql/internal/source"
)

// The request's OpenTelemetry spans (engine/spans): the run's root, one
// span per step, one per model call and per database query.

// tracerName is the instrumentation scope of the engine's spans.
const tracerName = spans.TracerName

func (e *Engine) startRun(ctx context.Context, kind string, tr *traceRec) context.Context {
	return spans.StartRun(ctx, e.tracer, kind, tr.T.ID)
}

func stepSpan(ctx context.Context, step string) context.Context { return spans.Step(ctx, step) }

func finishRun(ctx context.Context, res *Result, err error) {
	var out *spans.Outcome
	if res != nil {
		out = &spans.Outcome{RowCount: res.RowCount, Truncated: res.Truncated, HasSubQuery: len(res.SubQueries) > 0}
		if out.HasSubQuery {
			out.PlanSource = res.SubQueries[0].PlanSource
		}
	}
	spans.FinishRun(ctx, out, err)
}

// traceModels wraps the planner, the answerer and the selector so every
// model call is a span of the request's trace.
func traceModels(o *Options) {
	o.Planner = spans.Model{P: o.Planner}
	if o.Answerer != nil {
		o.Answerer = spans.Model{P: o.Answerer}
	}
	if o.Selector != nil {
		o.Selector = spans.Model{P: o.Selector}
	}
}

// tracedSource makes every query of a datasource a span.
type tracedSource struct{ Source }

func (s tracedSource) Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error) {
	return spans.Query(ctx, s.ID(), s.Dialect(), func(ctx context.Context) (*source.Result, error) {
		return s.Source.Query(ctx, sql, args, maxRows)
	})
}

// observeModels wraps every model the engine calls (the planner, the
// answerer, and the selector that judges and critiques scaling candidates)
// so every model call is an event (extend.ObserveModel: counts and names
// only, never prompts or answers).
func observeModels(o *Options) {
	if o.Events == nil {
		return
	}
	runID := func(ctx context.Context) string {
		if tr := traceFrom(ctx); tr != nil {
			return tr.T.ID
		}
		return ""
	}
	o.Planner = extend.ObserveModel(o.Planner, o.Events, runID)
	if o.Answerer != nil {
		o.Answerer = extend.ObserveModel(o.Answerer, o.Events, runID)
	}
	if o.Selector != nil {
		o.Selector = extend.ObserveModel(o.Selector, o.Events, runID)
	}
}
