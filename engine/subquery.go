package engine

import (
	"context"
	"github.com/nl2sql/nl2sql/engine/result"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/spans"
	"github.com/nl2sql/nl2sql/planast"
)

// The sub-queries of a question across datasources: engine/multi walks
// them layer by layer and combines their rows in DuckDB; each runs the
// single-datasource steps here (multiHost.Run, the multi.Host this
// package implements).

// A sub-query's plan must have exactly its expected output columns
// (multi.WithExpected, which validateFor reads), and the planner is shown
// them (a section after the schema context, see multi.ExpectedSection).

// multiHost is the pipeline's side of one question across datasources
// (multi.Host): every sub-query takes the steps a question on one
// datasource takes, with this run's trace and hooks.
type multiHost struct {
	e     *Engine
	tr    *traceRec
	today string
}

func (h *multiHost) Candidates(ctx context.Context, q string) ([]multi.Candidate, error) {
	return h.e.candidates(ctx, q)
}

func (h *multiHost) Resolved(ctx context.Context, q string, ids []string) ([]string, error) {
	return h.e.resolved(ctx, q, ids, h.tr)
}

func (h *multiHost) Picked(ids []string) { h.tr.T.Datasource = strings.Join(ids, ",") }

func (h *multiHost) Open(ctx context.Context, id string) (multi.Source, error) {
	if !h.e.reaches(ctx, id) {
		return nil, h.e.noDatasource(ctx, id)
	}
	ds, err := h.e.datasource(ctx, id)
	if err != nil {
		return nil, err
	}
	return stepSource{h.e, ds}, nil
}

func (h *multiHost) Step(ctx context.Context, step string) context.Context {
	return progress(ctx, step)
}

func (h *multiHost) Hook(ctx context.Context, p hooks.Point, in hooks.Input) (hooks.Outcome, error) {
	return h.e.hook(ctx, p, h.tr, in)
}

func (h *multiHost) Refused(attempt int, issues []planast.Issue) {
	h.tr.Update(func(t *Trace) { t.Rejected = append(t.Rejected, Attempt{Attempt: attempt, Issues: issues}) })
}

func (h *multiHost) TraceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration) {
	traceCall(ctx, req, resp, err, took)
}

// Run plans, renders and runs one sub-query on the single-datasource
// path: its intent is the question, its expected columns are shown to the
// planner and required of the plan, and its plan is cached under its own
// intent and datasource.
func (h *multiHost) Run(ctx context.Context, s multi.Sub, src multi.Source) (r multi.SubRun) {
	e, ds, today := h.e, src.(stepSource).ds, h.today
	r.Query = SubQuery{ID: s.ID, Name: s.Ref, Datasource: s.Datasource, Dialect: ds.src.Dialect(), Intent: s.Intent}
	ctx, sp := spans.SubQuery(ctx, s.ID, s.Datasource)
	defer func() { spans.End(sp, r.Err) }()
	fail := func(err error) multi.SubRun {
		r.Err = err
		r.Query.Error = AsError(err).Error()
		return r
	}
	p, err := h.plan(ctx, s, ds)
	if p != nil {
		r.Usage, r.ModelMS = p.usage, p.modelMS
		r.Query.Attempts = p.attempts
	}
	if err != nil {
		return fail(err)
	}
	tr := traceFrom(ctx)
	if p, err = e.afterPlanning(ctx, ds, s.Intent, p, tr); err != nil { // a changed plan is validated again
		return fail(err)
	}
	r.Query.Plan, r.Query.PlanSource, r.Query.Reasoning = p.plan, p.source, p.reasoning
	r.Query.Definitions = ds.sem.Used(p.planner)
	if got, want := strings.Join(p.columns, ","), strings.Join(multi.ColumnNames(s.Expected), ","); got != want {
		return fail(Errorf(CodePlanInvalid, "", "the plan returns the columns %s, not the expected %s", got, want))
	}
	_, dsp := spans.Start(ctx, "render")
	rowCap := multi.SourceRows(ds.spec.RowLimit)
	sql, err := e.renderRows(ds, p, rowCap)
	spans.End(dsp, err)
	if err != nil {
		return fail(err)
	}
	r.Query.SQL = sql
	in := planInput(ds, p)
	in.Question, in.SQL = s.Intent, sql
	if err := multi.BeforeExecution(ctx, h.Hook, in); err != nil {
		return fail(err)
	}
	ectx, esp := spans.Start(ctx, "execute")
	rows, err := e.executeRows(ectx, ds, sql, rowCap)
	spans.End(esp, err)
	if err != nil {
		return fail(err)
	}
	result.Typed(rows, p.plan, p.types, ds.snap)
	if err := e.resultHook(ctx, hooks.AfterExecution, ds, s.Intent, p, rows.Columns, len(rows.Rows), rows.Truncated, "", tr); err != nil {
		return fail(err)
	}
	if s.Plan != nil {
		// the client's plan meets the checks its rows get on run_plan
		r.Warnings = append(e.fanoutProbes(ctx, ds, p.plan, append([]string{}, p.warnings...)), e.resultWarnings(ctx, ds, p, rows.Rows)...)
	} else {
		e.storePlan(ctx, ds, s.Intent, today, p)
	}
	r.Rows = rows
	r.Query.RowCount, r.Query.Truncated = len(rows.Rows), rows.Truncated
	return r
}

// plan is a sub-query's validated plan: the client's own (a
// run_combined_plan source), validated again for the caller with its
// expected columns, or the planner's for its intent.
func (h *multiHost) plan(ctx context.Context, s multi.Sub, ds *datasource) (*planned, error) {
	e := h.e
	ctx, sp := spans.Start(ctx, "plan")
	if s.Plan != nil {
		plan, err := planast.Decode(s.Plan, planast.DefaultLimits)
		if err != nil {
			spans.End(sp, err)
			return nil, err
		}
		v, err := e.validateFor(multi.WithExpected(ctx, s.Expected), ds, plan)
		spans.End(sp, err)
		if err != nil {
			return nil, err
		}
		return &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "supplied", warnings: v.Warnings, planner: plan}, nil
	}
	if err := e.screen(ctx, ds, s.Intent); err != nil {
		spans.End(sp, err)
		return nil, err
	}
	rctx, rsp := spans.Start(ctx, "retrieve")
	sctx := e.subContext(rctx, ds, s)
	rsp.End()
	p, err := e.planValidated(multi.WithExpected(ctx, s.Expected), ds, s.Intent, sctx, h.today)
	spans.End(sp, err)
	return p, err
}

// subContext is the schema context a sub-query is planned with: the
// datasource's, retrieved for its intent, then its expected output.
func (e *Engine) subContext(ctx context.Context, ds *datasource, s multi.Sub) string {
	return e.retrieve(ctx, ds, s.Intent) + multi.ExpectedSection(s.Expected)
}

// SubQueryPlanRequests returns the first planner call of each sub-query of
// a decomposition (a DecomposeAnswer document, as recorded for step
// "decompose"), in sub-query id order, without sending any: what a
// recordings check compares a sub-query plan recording's prompt_sha256
// with. Errors are *Error.
func (e *Engine) SubQueryPlanRequests(ctx context.Context, doc []byte) ([]llm.Request, error) {
	ans, offered, err := multi.Supplied(doc)
	if err != nil {
		return nil, err
	}
	dec, issues := multi.Check(ans, offered)
	if issues != nil {
		return nil, multi.Invalid(issues, "the decomposition is invalid")
	}
	var out []llm.Request
	for _, s := range dec.Subs {
		ds, err := e.resolve(ctx, s.Datasource)
		if err != nil {
			return nil, err
		}
		out = append(out, e.planRequest(ds, s.Intent, e.subContext(ctx, ds, s), e.opts.Today(), nil, 0))
	}
	return out, nil
}
