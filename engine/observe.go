package engine

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/spans"
	"github.com/nl2sql/nl2sql/internal/source"
)

// The request's OpenTelemetry spans (engine/spans): the run's root, one
// span per step, one per model call and per database query.

// tracerName is the instrumentation scope of the engine's spans.
const tracerName = spans.TracerName

func (e *Engine) startRun(ctx context.Context, kind string, tr *traceRec) context.Context {
	return spans.StartRun(ctx, e.tracer, kind, tr.t.ID)
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

func startSpan(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	return spans.Start(ctx, name, opts...)
}

func endSpan(sp trace.Span, err error) { spans.End(sp, err) }

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

// observedPlanner publishes a model.call event for every call of p.
type observedPlanner struct {
	p   Planner
	bus *events.Bus
}

// observeModels wraps every model the engine calls (the planner, the
// answerer, and the selector that judges and critiques scaling candidates)
// so every model call is an event (counts and names only, never prompts or
// answers).
func observeModels(o *Options) {
	if o.Events == nil {
		return
	}
	o.Planner = observedPlanner{o.Planner, o.Events}
	if o.Answerer != nil {
		o.Answerer = observedPlanner{o.Answerer, o.Events}
	}
	if o.Selector != nil {
		o.Selector = observedPlanner{o.Selector, o.Events}
	}
}

func (op observedPlanner) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	t0 := time.Now()
	resp, err := op.p.Complete(ctx, req)
	ev := events.ModelCall{Step: req.Step, DurationMS: ms(time.Since(t0)), Failed: err != nil}
	if tr := traceFrom(ctx); tr != nil {
		ev.RunID = tr.t.ID
	}
	if resp != nil {
		ev.Provider, ev.Model, ev.InputTokens, ev.OutputTokens = resp.Provider, resp.Model, resp.Usage.InputTokens, resp.Usage.OutputTokens
	}
	op.bus.Publish(ctx, ev)
	return resp, err
}
