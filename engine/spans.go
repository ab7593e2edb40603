package engine

import (
	"context"
	"errors"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// One request is one OpenTelemetry trace. Its root is the span already in
// the context (the MCP tool call's, see mcp.NewServer) or, without one, a
// span the engine starts named for the run (ask, explain, run_plan, …: a
// CLI command). Under it the pipeline steps follow one another (resolve,
// verified, retrieve, plan, render, execute, answer), and inside them the
// work they do: validate per plan checked, a "chat <model>" span per model
// call, a "SELECT <datasource>" span per database query, combine for the
// DuckDB step of a decomposition, subquery per sub-query. Spans are
// started from the context they run under, so the concurrent sub-queries
// and scaling candidates nest where they ran.
//
// Attributes are names, counts and codes only: never SQL text, prompts,
// bound values, rows or secrets.

// tracerName is the instrumentation scope of the engine's spans.
const tracerName = "github.com/nl2sql/nl2sql/engine"

type runSpanKey struct{}

// runSpan is a run's root span and the top-level step in progress.
type runSpan struct {
	root  trace.Span
	owned bool // started by the engine, so ended by it
	mu    sync.Mutex
	step  trace.Span
}

// startRun makes ctx's span the run's root, or starts one named kind when
// ctx has none. finishRun (from runFinished) ends what startRun began.
func (e *Engine) startRun(ctx context.Context, kind string, tr *traceRec) context.Context {
	rs := &runSpan{root: trace.SpanFromContext(ctx)}
	if !rs.root.SpanContext().IsValid() {
		ctx, rs.root = e.tracer.Start(ctx, kind, trace.WithSpanKind(trace.SpanKindServer))
		rs.owned = true
	}
	rs.root.SetAttributes(attribute.String("nl2sql.run_id", tr.t.ID), attribute.String("nl2sql.run.kind", kind))
	return context.WithValue(ctx, runSpanKey{}, rs)
}

// stepSpan ends the run's step in progress and starts step as a child of
// the root; the returned context carries it, so the step's own spans nest
// under it. Without a run it returns ctx.
func stepSpan(ctx context.Context, step string) context.Context {
	rs, _ := ctx.Value(runSpanKey{}).(*runSpan)
	if rs == nil || !rs.root.SpanContext().IsValid() {
		return ctx
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.step != nil {
		rs.step.End()
	}
	ctx, rs.step = rs.root.TracerProvider().Tracer(tracerName).Start(trace.ContextWithSpan(ctx, rs.root), step)
	return ctx
}

// finishRun ends the step in progress and records the outcome on the root
// (ending it when the engine started it).
func finishRun(ctx context.Context, res *Result, err error) {
	rs, _ := ctx.Value(runSpanKey{}).(*runSpan)
	if rs == nil {
		return
	}
	rs.mu.Lock()
	if rs.step != nil {
		endSpan(rs.step, err)
		rs.step = nil
	}
	rs.mu.Unlock()
	if res != nil {
		rs.root.SetAttributes(attribute.Int("nl2sql.row_count", res.RowCount), attribute.Bool("nl2sql.truncated", res.Truncated))
		if len(res.SubQueries) > 0 {
			rs.root.SetAttributes(attribute.String("nl2sql.plan_source", res.SubQueries[0].PlanSource))
		}
	}
	if err != nil {
		code := errorType(err)
		rs.root.SetAttributes(attribute.String("error.type", code))
		rs.root.SetStatus(codes.Error, code)
	}
	if rs.owned {
		rs.root.End()
	}
}

// startSpan starts a child of ctx's span; without one (no run, no
// tracing) it records nothing and returns ctx.
func startSpan(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(tracerName).Start(ctx, name, opts...)
}

// endSpan ends sp, marking it failed with err's code.
func endSpan(sp trace.Span, err error) {
	if err != nil {
		code := errorType(err)
		sp.SetAttributes(attribute.String("error.type", code))
		sp.SetStatus(codes.Error, code)
	}
	sp.End()
}

// errorType is err's code: the engine's, else a refused plan's
// (PLAN_INVALID) or the datasource adapter's.
func errorType(err error) string {
	var se *source.Error
	var pe *planast.Error
	switch {
	case errors.As(err, new(*Error)):
	case errors.As(err, &pe):
		return string(CodePlanInvalid)
	case errors.As(err, &se):
		return se.Code
	}
	return string(AsError(err).Code)
}

// traceModels wraps the planner, the answerer and the selector so every
// model call is a span of the request's trace.
func traceModels(o *Options) {
	o.Planner = tracedPlanner{o.Planner}
	if o.Answerer != nil {
		o.Answerer = tracedPlanner{o.Answerer}
	}
	if o.Selector != nil {
		o.Selector = tracedPlanner{o.Selector}
	}
}

// tracedPlanner makes every model call a GenAI client span, "chat
// <model>", with the provider, the model, the step and the token counts.
type tracedPlanner struct{ p Planner }

func (tp tracedPlanner) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	ctx, sp := startSpan(ctx, "chat", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"), attribute.String("nl2sql.step", req.Step)))
	resp, err := tp.p.Complete(ctx, req)
	if resp != nil {
		if resp.Model != "" {
			sp.SetName("chat " + resp.Model)
		}
		sp.SetAttributes(attribute.String("gen_ai.provider.name", resp.Provider), attribute.String("gen_ai.response.model", resp.Model),
			attribute.Int("gen_ai.usage.input_tokens", resp.Usage.InputTokens), attribute.Int("gen_ai.usage.output_tokens", resp.Usage.OutputTokens))
	}
	if err != nil {
		sp.SetAttributes(attribute.String("error.type", string(providerError(err).Code)))
		sp.SetStatus(codes.Error, "model call failed")
	}
	sp.End()
	return resp, err
}

// tracedSource makes every query a database client span, "SELECT
// <datasource>", with the system, the datasource and the rows returned
// (never the SQL text, which holds the question's literals).
type tracedSource struct{ Source }

// dbSystem names a dialect as the database semantic conventions do.
var dbSystem = map[string]string{"sqlite": "sqlite", "duckdb": "duckdb", "postgres": "postgresql"}

func (s tracedSource) Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error) {
	ctx, sp := startSpan(ctx, "SELECT "+s.ID(), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", dbSystem[s.Dialect()]), attribute.String("db.namespace", s.ID()),
			attribute.String("db.operation.name", "SELECT")))
	res, err := s.Source.Query(ctx, sql, args, maxRows)
	if res != nil {
		sp.SetAttributes(attribute.Int("db.response.returned_rows", len(res.Rows)), attribute.Bool("nl2sql.truncated", res.Truncated))
	}
	endSpan(sp, err)
	return res, err
}
