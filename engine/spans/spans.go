package spans

import (
	"context"
	"errors"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
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

// TracerName is the instrumentation scope of the engine's spans.
const TracerName = "github.com/nl2sql/nl2sql/engine"

type runSpanKey struct{}

// runSpan is a run's root span and the top-level step in progress.
type runSpan struct {
	root  trace.Span
	owned bool // started by the engine, so ended by it
	mu    sync.Mutex
	step  trace.Span
}

// StartRun makes ctx's span the run's root, or starts one named kind with
// tracer when ctx has none. FinishRun ends what StartRun began.
func StartRun(ctx context.Context, tracer trace.Tracer, kind, runID string) context.Context {
	rs := &runSpan{root: trace.SpanFromContext(ctx)}
	if !rs.root.SpanContext().IsValid() {
		ctx, rs.root = tracer.Start(ctx, kind, trace.WithSpanKind(trace.SpanKindServer))
		rs.owned = true
	}
	rs.root.SetAttributes(attribute.String("nl2sql.run_id", runID), attribute.String("nl2sql.run.kind", kind))
	return context.WithValue(ctx, runSpanKey{}, rs)
}

// Step ends the run's step in progress and starts step as a child of
// the root; the returned context carries it, so the step's own spans nest
// under it. Without a run it returns ctx.
func Step(ctx context.Context, step string) context.Context {
	rs, _ := ctx.Value(runSpanKey{}).(*runSpan)
	if rs == nil || !rs.root.SpanContext().IsValid() {
		return ctx
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.step != nil {
		rs.step.End()
	}
	ctx, rs.step = rs.root.TracerProvider().Tracer(TracerName).Start(trace.ContextWithSpan(ctx, rs.root), step)
	return ctx
}

// Outcome is what the root span records of a run's result.
type Outcome struct {
	RowCount    int
	Truncated   bool
	HasSubQuery bool
	PlanSource  string // the first sub-query's
}

// FinishRun ends the step in progress and records the outcome on the root
// (ending it when StartRun started it); res is nil when there is no result.
func FinishRun(ctx context.Context, res *Outcome, err error) {
	rs, _ := ctx.Value(runSpanKey{}).(*runSpan)
	if rs == nil {
		return
	}
	rs.mu.Lock()
	if rs.step != nil {
		End(rs.step, err)
		rs.step = nil
	}
	rs.mu.Unlock()
	if res != nil {
		rs.root.SetAttributes(attribute.Int("nl2sql.row_count", res.RowCount), attribute.Bool("nl2sql.truncated", res.Truncated))
		if res.HasSubQuery {
			rs.root.SetAttributes(attribute.String("nl2sql.plan_source", res.PlanSource))
		}
	}
	if err != nil {
		code := ErrorType(err)
		rs.root.SetAttributes(attribute.String("error.type", code))
		rs.root.SetStatus(codes.Error, code)
	}
	if rs.owned {
		rs.root.End()
	}
}

// Start starts a child of ctx's span; without one (no run, no
// tracing) it records nothing and returns ctx.
func Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(TracerName).Start(ctx, name, opts...)
}

// End ends sp, marking it failed with err's code.
func End(sp trace.Span, err error) {
	if err != nil {
		code := ErrorType(err)
		sp.SetAttributes(attribute.String("error.type", code))
		sp.SetStatus(codes.Error, code)
	}
	sp.End()
}

// ErrorType is err's code: the engine's, else a refused plan's
// (PLAN_INVALID) or the datasource adapter's.
func ErrorType(err error) string {
	var se *source.Error
	var pe *planast.Error
	switch {
	case errors.As(err, new(*fault.Error)):
	case errors.As(err, &pe):
		return string(fault.CodePlanInvalid)
	case errors.As(err, &se):
		return se.Code
	}
	return string(fault.AsError(err).Code)
}

// Completer is a model, as the pipeline calls it.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// Model makes every model call of P a GenAI client span, "chat <model>",
// with the provider, the model, the step and the token counts.
type Model struct{ P Completer }

// Complete implements Completer.
func (tp Model) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	ctx, sp := Start(ctx, "chat", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"), attribute.String("nl2sql.step", req.Step)))
	resp, err := tp.P.Complete(ctx, req)
	if resp != nil {
		if resp.Model != "" {
			sp.SetName("chat " + resp.Model)
		}
		sp.SetAttributes(attribute.String("gen_ai.provider.name", resp.Provider), attribute.String("gen_ai.response.model", resp.Model),
			attribute.Int("gen_ai.usage.input_tokens", resp.Usage.InputTokens), attribute.Int("gen_ai.usage.output_tokens", resp.Usage.OutputTokens))
	}
	if err != nil {
		sp.SetAttributes(attribute.String("error.type", string(fault.Provider(err).Code)))
		sp.SetStatus(codes.Error, "model call failed")
	}
	sp.End()
	return resp, err
}

// Query makes one query, run, a database client span, "SELECT
// <datasource>", with the system, the datasource and the rows returned
// (never the SQL text, which holds the question's literals).
// dbSystem names a dialect as the database semantic conventions do.
var dbSystem = map[string]string{"sqlite": "sqlite", "duckdb": "duckdb", "postgres": "postgresql"}

func Query(ctx context.Context, datasource, dialect string, run func(ctx context.Context) (*source.Result, error)) (*source.Result, error) {
	ctx, sp := Start(ctx, "SELECT "+datasource, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", dbSystem[dialect]), attribute.String("db.namespace", datasource),
			attribute.String("db.operation.name", "SELECT")))
	res, err := run(ctx)
	if res != nil {
		sp.SetAttributes(attribute.Int("db.response.returned_rows", len(res.Rows)), attribute.Bool("nl2sql.truncated", res.Truncated))
	}
	End(sp, err)
	return res, err
}
