package engine

import (
	"context"
	"encoding/json"
	"github.com/nl2sql/nl2sql/engine/result"
	"time"

	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/scale"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// The configuration and the report of test-time scaling (engine/scale)
// keep their engine names: Options, DatasourceSpec and Result carry them.
type (
	// ScaleConfig configures test-time scaling; the zero value is off.
	ScaleConfig = scale.Config
	// StrategySpec is one candidate strategy of a ScaleConfig.
	StrategySpec = scale.StrategySpec
	// ScaleReport is what test-time scaling did for one question.
	ScaleReport = scale.Report
)

// planMaybeScaled is the plan step when scaling may apply: a cached plan,
// else the single call when scaling is off or the router calls the question
// easy, else the scaled run (engine/scale). The report is nil when scaling
// is off.
func (e *Engine) planMaybeScaled(ctx context.Context, ds *datasource, q, sctx, today string) (*planned, *ScaleReport, error) {
	cfg := e.scaling(ds)
	if !cfg.Enabled() {
		p, err := e.planValidated(ctx, ds, q, sctx, today)
		return p, nil, err
	}
	if err := cfg.Check(); err != nil { // internal/app checks the config file's; this guards Options built in code
		return nil, nil, &Error{Code: CodeInternal, Msg: "the scaling configuration is invalid: " + err.Error(),
			Hint: "fix Options.Scaling (or the datasource's Scaling)", Err: err}
	}
	if p := e.cachedPlan(ctx, ds, q, today); p != nil {
		return p, nil, nil
	}
	h := &scaleHost{e: e, ds: ds, q: q, sctx: sctx, today: today, tr: traceFrom(ctx)}
	if h.tr == nil {
		h.tr = &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC()}}
	}
	run := scale.New[*planned](h, scale.Question{Datasource: ds.spec.ID, Text: q, SchemaContext: sctx, Today: today, Tables: len(ds.snap.Tables)},
		scale.Deps{Planner: e.opts.Planner, Selector: e.opts.Selector, MaxRepairs: e.opts.MaxRepairs}, cfg)
	if !run.Route(ctx) {
		p, err := e.planValidated(ctx, ds, q, sctx, today)
		if p != nil {
			addScaleUsage(&p.usage, run.Usage())
		}
		return p, scaleReport(ctx, run), err
	}
	w, err := run.Plan(ctx)
	if err != nil {
		return nil, scaleReport(ctx, run), err
	}
	p := *w.Plan
	p.attempts = w.Attempts
	p.ran = &ranPlan{sql: w.SQL, rows: w.Rows, execMS: ms(w.Exec)} // run once, as a candidate
	p.modelMS = ms(w.Model)
	addScaleUsage(&p.usage, run.Usage())
	return &p, scaleReport(ctx, run), nil
}

// scaling is the configuration for a datasource: its own, else the global.
func (e *Engine) scaling(ds *datasource) ScaleConfig {
	if ds.spec.Scaling != nil {
		return *ds.spec.Scaling
	}
	return e.opts.Scaling
}

func addScaleUsage(u *Usage, s scale.Usage) {
	u.Add(Usage{ModelCalls: s.Calls, InputTokens: s.InputTokens, OutputTokens: s.OutputTokens})
}

// scaleReport is the run's report, stored in the request's trace too.
func scaleReport[P any](ctx context.Context, run *scale.Run[P]) *ScaleReport {
	r := run.Report()
	traceFrom(ctx).Update(func(t *Trace) { t.Scaling = r })
	return r
}

// scaleHost is the pipeline's side of one scaled question: every
// candidate takes the steps a single plan takes (validate for the caller,
// the hooks around its run, render, execute read-only), one call each.
type scaleHost struct {
	e              *Engine
	ds             *datasource
	q, sctx, today string
	tr             *traceRec // the run's, for the hooks every candidate passes
}

func (h *scaleHost) PlanRequest(issues []planast.Issue, attempt int) llm.Request {
	return h.e.planRequest(h.ds, h.q, h.sctx, h.today, issues, attempt)
}

func (h *scaleHost) Validate(ctx context.Context, answer json.RawMessage) (*planned, error) {
	return h.e.validateAnswer(ctx, h.ds, answer)
}

func (h *scaleHost) Gate(ctx context.Context, p *planned) (scale.Gated[*planned], error) {
	p, err := h.e.afterPlanning(ctx, h.ds, h.q, p, h.tr)
	if err != nil {
		return scale.Gated[*planned]{}, err
	}
	sql, err := h.e.render(h.ds, p)
	if err != nil {
		return scale.Gated[*planned]{}, err
	}
	needs, reason, err := h.e.executionHooks(ctx, h.ds, h.q, p, sql, h.tr)
	if err != nil {
		return scale.Gated[*planned]{}, err
	}
	return scale.Gated[*planned]{Plan: p, SQL: sql, Held: needs, Reason: reason}, nil
}

func (h *scaleHost) Execute(ctx context.Context, p *planned, sql string) (*source.Result, error) {
	rows, err := h.e.execute(ctx, h.ds, sql)
	if err != nil {
		return nil, err
	}
	result.Typed(rows, p.plan, p.types, h.ds.snap)
	return rows, nil
}

func (h *scaleHost) CheckResult(ctx context.Context, p *planned, rows *source.Result) error {
	return h.e.resultHook(ctx, hooks.AfterExecution, h.ds, h.q, p, rows.Columns, len(rows.Rows), rows.Truncated, "", h.tr)
}

func (h *scaleHost) Hold(ctx context.Context, p *planned, sql, reason string) error {
	return h.e.requireApproval(ctx, h.ds, h.q, p, sql, reason, h.tr)
}

func (h *scaleHost) TraceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration) {
	traceCall(ctx, req, resp, err, took)
}
