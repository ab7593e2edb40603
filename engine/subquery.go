package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/engine/extend"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// The sub-queries of a question across datasources: each runs the
// single-datasource steps (runSub), layer by layer (multi.RunLayers), and
// their rows are combined in DuckDB (multi.Combine).

// A sub-query of a cross-datasource question is planned by the
// single-datasource path (planValidated) with its intent as the question.
// Two things differ, and both travel in the context so that the path keeps
// one signature: the planner is shown the expected output (a section after
// the schema context, see multi.ExpectedSection), and every plan it returns, a
// cached plan included, must have exactly the expected output columns
// (validate.Options.ExpectedColumns, through expectColumns).

type expectedKey struct{}

// withExpected marks ctx as planning a sub-query with these output columns.
func withExpected(ctx context.Context, cols []duckcompute.Column) context.Context {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return context.WithValue(ctx, expectedKey{}, names)
}

// expectColumns sets opts.ExpectedColumns to the sub-query's expected
// output columns when ctx plans a sub-query (planValidated
// and cachedPlan validate with it), and returns opts unchanged otherwise.
func expectColumns(ctx context.Context, opts validate.Options) validate.Options {
	if names, ok := ctx.Value(expectedKey{}).([]string); ok {
		opts.ExpectedColumns = names
	}
	return opts
}

// subRun is the outcome of one sub-query.
type subRun struct {
	sq      SubQuery
	rows    *source.Result
	usage   Usage
	modelMS float64
	err     error
}

// runDecomposition runs every sub-query, layer by layer, then combines the
// results in DuckDB and builds the result.
func (e *Engine) runDecomposition(ctx context.Context, q, today string, dec *multi.Decomposition, work multiUsage, sw *stopwatch, tm *Timings, tr *traceRec) (*Result, error) {
	dss := map[string]*datasource{}
	rowLimit := 0
	for _, s := range dec.Subs {
		if !e.reaches(ctx, s.Datasource) {
			return nil, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use", "there is no datasource %q", s.Datasource)
		}
		ds, err := e.datasource(ctx, s.Datasource)
		if err != nil {
			return nil, err
		}
		dss[s.Datasource] = ds
		rowLimit = max(rowLimit, ds.spec.RowLimit)
	}
	ctx = progress(ctx, "retrieve")
	runs := make([]subRun, len(dec.Subs))
	multi.RunLayers(dec, func(i int) { runs[i] = e.runSub(ctx, dec.Subs[i], dss[dec.Subs[i].Datasource], today) })
	if err := ctx.Err(); err != nil {
		return nil, deadline(ctx, err)
	}
	usage := work.usage
	modelMS := work.modelMS
	failed := 0
	var firstErr error
	for _, r := range runs {
		usage.Add(r.usage)
		modelMS += r.modelMS
		if r.err != nil {
			failed++
			if firstErr == nil {
				firstErr = r.err
			}
		}
	}
	if failed == len(runs) {
		return nil, deadline(ctx, firstErr)
	}
	for _, r := range runs { // a rule's refusal of any part refuses the whole run: no partial answer around it
		if r.err != nil && AsError(r.err).Code == CodeRefusedByRule {
			return nil, r.err
		}
	}
	tm.Execute = sw.Lap()
	ctx = progress(ctx, "execute")
	out, warnings, err := e.combine(ctx, dec, runs, rowLimit)
	if err != nil {
		return nil, deadline(ctx, err)
	}
	tm.Execute += sw.Lap()
	ctx = progress(ctx, "answer")
	res := &Result{
		Question: q, Columns: out.Columns, ColumnTypes: out.Types, Rows: out.Rows, RowCount: len(out.Rows),
		Truncated: out.Truncated, SQL: out.SQL, Plan: out.Plan, Usage: usage, Warnings: warnings, TraceID: tr.t.ID,
	}
	for _, r := range runs {
		res.SubQueries = append(res.SubQueries, r.sq)
	}
	if out.Truncated {
		res.Warnings = append(res.Warnings, "the result was cut at the row limit; ask for fewer rows or add a filter")
	}
	res.Answer = summarise(res)
	if failed > 0 {
		res.Answer = fmt.Sprintf("Partial answer: %d of %d sub-queries failed (see warnings). %s", failed, len(runs), res.Answer)
	}
	if err := e.combinedAnswerHook(ctx, q, dss, runs, res, tr); err != nil {
		return nil, err
	}
	tm.Model = modelMS
	tm.Answer = sw.Lap()
	tm.Total = sw.Total()
	res.Timings = *tm
	return res, nil
}

// runSub plans, renders and runs one sub-query on the single-datasource
// path: its intent is the question, its expected columns are shown to the
// planner and required of the plan, and its plan is cached under its own
// intent and datasource.
func (e *Engine) runSub(ctx context.Context, s multi.Sub, ds *datasource, today string) (r subRun) {
	r.sq = SubQuery{ID: s.ID, Datasource: s.Datasource, Dialect: ds.src.Dialect(), Intent: s.Intent}
	ctx, sp := startSpan(ctx, "subquery", trace.WithAttributes(attribute.String("nl2sql.subquery_id", s.ID), attribute.String("nl2sql.datasource", s.Datasource)))
	defer func() { endSpan(sp, r.err) }()
	fail := func(err error) subRun {
		r.err = err
		r.sq.Error = AsError(err).Error()
		return r
	}
	if err := e.screen(ctx, ds, s.Intent); err != nil {
		return fail(err)
	}
	rctx, rsp := startSpan(ctx, "retrieve")
	sctx := e.subContext(rctx, ds, s)
	rsp.End()
	pctx, psp := startSpan(ctx, "plan")
	p, err := e.planValidated(withExpected(pctx, s.Expected), ds, s.Intent, sctx, today)
	endSpan(psp, err)
	if p != nil {
		r.usage, r.modelMS = p.usage, p.modelMS
		r.sq.Attempts = p.attempts
	}
	if err != nil {
		return fail(err)
	}
	tr := traceFrom(ctx)
	if p, err = e.afterPlanning(ctx, ds, s.Intent, p, tr); err != nil { // a changed plan is validated again
		return fail(err)
	}
	r.sq.Plan, r.sq.PlanSource, r.sq.Reasoning = p.plan, p.source, p.reasoning
	r.sq.Definitions = ds.definitionsUsed(p.planner)
	if got, want := strings.Join(p.columns, ","), strings.Join(multi.ColumnNames(s.Expected), ","); got != want {
		return fail(Errorf(CodePlanInvalid, "", "the plan returns the columns %s, not the expected %s", got, want))
	}
	_, dsp := startSpan(ctx, "render")
	sql, err := e.render(ds, p)
	endSpan(dsp, err)
	if err != nil {
		return fail(err)
	}
	r.sq.SQL = sql
	if err := e.subBeforeExecution(ctx, ds, s.Intent, p, sql, tr); err != nil {
		return fail(err)
	}
	ectx, esp := startSpan(ctx, "execute")
	rows, err := e.execute(ectx, ds, sql)
	endSpan(esp, err)
	if err != nil {
		return fail(err)
	}
	applyPlanTypes(rows, p.types)
	if err := e.resultHook(ctx, hooks.AfterExecution, ds, s.Intent, p, rows.Columns, len(rows.Rows), rows.Truncated, "", tr); err != nil {
		return fail(err)
	}
	e.storePlan(ctx, ds, s.Intent, today, p)
	r.rows = rows
	r.sq.RowCount, r.sq.Truncated = len(rows.Rows), rows.Truncated
	return r
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

// combine loads every sub-query's rows into DuckDB and runs the
// combination plan (multi.Combine), under a "combine" span.
func (e *Engine) combine(ctx context.Context, dec *multi.Decomposition, runs []subRun, rowLimit int) (*duckcompute.Output, []string, error) {
	ctx, sp := startSpan(ctx, "combine", trace.WithAttributes(attribute.Int("nl2sql.subqueries", len(runs))))
	outs := make([]multi.Outcome, len(runs))
	for i, r := range runs {
		outs[i] = multi.Outcome{Rows: r.rows, Err: r.err}
	}
	out, warnings, err := multi.Combine(ctx, dec, outs, rowLimit, e.opts.RequestTimeout)
	endSpan(sp, err)
	return out, warnings, err
}

// subBeforeExecution runs the before_execution hooks for one sub-query. A
// rule that requires approval refuses it: an approval holds one query over
// one datasource, so a question across datasources cannot wait for one.
func (e *Engine) subBeforeExecution(ctx context.Context, ds *datasource, intent string, p *planned, sql string, tr *traceRec) error {
	in := planInput(ds, p)
	in.Question, in.SQL = intent, sql
	out, err := e.hook(ctx, hooks.BeforeExecution, tr, in)
	if err != nil {
		return err
	}
	if out.NeedsApproval {
		return Errorf(CodeRefusedByRule, "ask about one datasource: a query over one datasource can be sent for approval",
			"a rule requires approval for part of this question, and approvals hold questions over one datasource")
	}
	return nil
}

// combinedAnswerHook runs the after_answer hooks over a combined result:
// every datasource and stored table the sub-queries read, the result's
// shape and the answer text (never the rows).
func (e *Engine) combinedAnswerHook(ctx context.Context, q string, dss map[string]*datasource, runs []subRun, res *Result, tr *traceRec) error {
	in := hooks.Input{Question: q, Columns: res.Columns, RowCount: res.RowCount, Truncated: res.Truncated, Answer: res.Answer}
	for id := range dss {
		in.Datasources = append(in.Datasources, id)
	}
	for _, r := range runs {
		if r.sq.Plan != nil {
			t, c := extend.PlanReads(r.sq.Datasource, r.sq.Plan)
			in.Tables, in.ReadColumns = append(in.Tables, t...), append(in.ReadColumns, c...)
		}
	}
	slices.Sort(in.Datasources)
	slices.Sort(in.Tables)
	slices.Sort(in.ReadColumns)
	in.Tables, in.ReadColumns = slices.Compact(in.Tables), slices.Compact(in.ReadColumns)
	_, err := e.hook(ctx, hooks.AfterAnswer, tr, in)
	return err
}
