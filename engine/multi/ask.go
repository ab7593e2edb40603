package multi

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/duckcompute"
	summary "github.com/nl2sql/nl2sql/engine/answer"
	"github.com/nl2sql/nl2sql/engine/extend"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/engine/spans"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Host is what a question across datasources needs of the pipeline that
// asks it. The walk here never reaches a datasource, a policy, a hook or a
// trace itself: every such step goes through these calls, which are the
// pipeline's own, so a sub-query can do nothing a question on one
// datasource could not.
type Host interface {
	// Candidates ranks every datasource the caller reaches (Shortlist),
	// with no model call; none reached is DATASOURCE_NOT_FOUND.
	Candidates(ctx context.Context, question string) ([]Candidate, error)
	// Resolved runs the after_resolution hooks over ids and returns the
	// narrowed set, each still within the caller's reach.
	Resolved(ctx context.Context, question string, ids []string) ([]string, error)
	// Picked records the datasources the question is answered from.
	Picked(ids []string)
	// Open opens datasource id for the caller; one the caller does not
	// reach is DATASOURCE_NOT_FOUND, as an unknown one is.
	Open(ctx context.Context, id string) (Source, error)
	// Step starts a step of the run (its progress and span) and returns
	// the step's context.
	Step(ctx context.Context, step string) context.Context
	// Run plans and runs one sub-query through the single-datasource
	// steps on src (one Open returned): the intent is the question, the
	// expected columns are shown to the planner and required of the plan.
	Run(ctx context.Context, s Sub, src Source) SubRun
	// Hook runs the hooks of point p for the run.
	Hook(ctx context.Context, p hooks.Point, in hooks.Input) (hooks.Outcome, error)
	// Refused records a refused decomposition attempt (numbered from 1).
	Refused(attempt int, issues []planast.Issue)
	// TraceCall records one model call in the request's trace.
	TraceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration)
	// Warnings are what the combination plan's rows may mean other than
	// they seem, judged as any plan's are (runs[i] is dec.Subs[i]'s run).
	Warnings(ctx context.Context, dec *Decomposition, runs []SubRun, res *result.Result) []string
	// Held says which of keys the stored table column that run's output
	// column selects as is holds, as the caller may see it (row filters
	// applied); ok is false for any other column or when the lookup fails.
	Held(ctx context.Context, run SubRun, column string, keys []any) (held map[string]bool, ok bool)
}

// Source is one opened datasource as the decomposer sees it.
type Source interface {
	ID() string
	Dialect() string
	Description() string
	// RowLimit bounds the rows the datasource returns.
	RowLimit() int
	// Retrieve is the schema context of the datasource for a question,
	// within the caller's scope.
	Retrieve(ctx context.Context, question string) string
}

// SubRun is the outcome of one sub-query: its record in the result, its
// rows (nil when it failed, with Err), and the model work it took.
type SubRun struct {
	Query   result.SubQuery
	Rows    *source.Result
	Usage   result.Usage
	ModelMS float64
	Err     error
	// Warnings are what the sub-query's own rows may mean other than they
	// seem (a client's plan gets run_plan's warnings); the result names
	// the source of each.
	Warnings []string
}

// Asker walks a question across datasources over its Host.
type Asker struct {
	Host       Host
	Model      Model
	MaxRepairs int
	// Timeout bounds the combination in DuckDB.
	Timeout time.Duration
	Log     *slog.Logger
}

// Ask answers question q when several datasources are configured and none
// is named: the reachable ones are shortlisted and the resolver picks. When
// it picks one datasource (or one alone is reached) Ask returns its id,
// and the model work spent, for the pipeline to answer as usual; otherwise
// the decomposer splits q and the combined result is returned.
func (a Asker) Ask(ctx context.Context, q, today, traceID string, sw *result.Stopwatch, tm *result.Timings) (*result.Result, string, Usage, error) {
	var work Usage
	cands, err := a.Host.Candidates(ctx, q)
	if err != nil {
		return nil, "", work, fault.Deadline(ctx, err)
	}
	if len(cands) == 1 { // one datasource reached: no resolver call, as with one configured
		return nil, cands[0].ID, work, nil
	}
	ids, usage, err := Pick(ctx, a.Model, q, today, cands, a.Host.TraceCall)
	work.Add(usage)
	if err != nil {
		return nil, "", work, fault.Deadline(ctx, err)
	}
	if len(ids) > 1 { // one datasource: the pipeline runs after_resolution on it
		if ids, err = a.Host.Resolved(ctx, q, ids); err != nil {
			return nil, "", work, err
		}
		if len(ids) == 0 {
			return nil, "", work, fault.Errorf(fault.CodeRefusedByRule, "ask your administrator", "a rule left no datasource to answer from")
		}
	}
	a.Host.Picked(ids)
	if len(ids) == 1 {
		return nil, ids[0], work, nil
	}
	blocks := make([]Block, len(ids))
	picked := make([]Source, len(ids))
	for i, id := range ids {
		if picked[i], err = a.Host.Open(ctx, id); err != nil {
			return nil, "", work, err
		}
	}
	tm.Resolve = sw.Lap()
	ctx = a.Host.Step(ctx, "plan")
	for i, src := range picked { // each offered with the schema context retrieved for q
		blocks[i] = Block{ID: src.ID(), Dialect: src.Dialect(), Description: src.Description(), Schema: src.Retrieve(ctx, q)}
	}
	d := Decomposer{Model: a.Model, MaxRepairs: a.MaxRepairs, Trace: a.Host.TraceCall, Log: a.Log, Refused: a.Host.Refused}
	dec, usage, err := d.Decompose(ctx, q, today, blocks)
	work.Add(usage)
	if err != nil {
		return nil, "", work, fault.Deadline(ctx, err)
	}
	tm.Plan = sw.Lap()
	res, err := a.Run(ctx, q, dec, work, traceID, sw, tm)
	return res, "", work, err
}

// Run runs every sub-query of dec, layer by layer, then combines the
// results in DuckDB and builds the result, the model work already spent
// (work) counted in. A sub-query that fails leaves its table empty and
// the answer says it is partial; a run where every sub-query fails is that
// error, and a rule's refusal of any part refuses the whole run.
func (a Asker) Run(ctx context.Context, q string, dec *Decomposition, work Usage, traceID string, sw *result.Stopwatch, tm *result.Timings) (*result.Result, error) {
	srcs := map[string]Source{}
	rowLimit := 0
	for _, s := range dec.Subs {
		src, err := a.Host.Open(ctx, s.Datasource)
		if err != nil {
			return nil, err
		}
		srcs[s.Datasource] = src
		rowLimit = max(rowLimit, src.RowLimit())
	}
	ctx = a.Host.Step(ctx, "retrieve")
	runs := make([]SubRun, len(dec.Subs))
	RunLayers(dec, func(i int) { runs[i] = a.Host.Run(ctx, dec.Subs[i], srcs[dec.Subs[i].Datasource]) })
	if err := ctx.Err(); err != nil {
		return nil, fault.Deadline(ctx, err)
	}
	usage := work.Result()
	modelMS := work.ModelMS
	for _, r := range runs {
		usage.Add(r.Usage)
		modelMS += r.ModelMS
	}
	if err := partFailed(ctx, dec, runs); err != nil {
		return nil, err
	}
	tm.Execute = sw.Lap()
	ctx = a.Host.Step(ctx, "execute")
	out, warnings, err := a.combine(ctx, dec, runs, rowLimit)
	if err != nil {
		return nil, fault.Deadline(ctx, err)
	}
	tm.Execute += sw.Lap()
	ctx = a.Host.Step(ctx, "answer")
	res := &result.Result{
		Question: q, Columns: out.Columns, ColumnTypes: out.Types, Rows: out.Rows, RowCount: len(out.Rows),
		Truncated: out.Truncated, SQL: out.SQL, Plan: out.Plan, Usage: usage, Warnings: warnings, TraceID: traceID,
	}
	for i, r := range runs {
		res.SubQueries = append(res.SubQueries, r.Query)
		for _, w := range r.Warnings {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%q (%s): %s", dec.Subs[i].Ref, dec.Subs[i].Datasource, w))
		}
	}
	if out.Truncated {
		res.Warnings = append(res.Warnings, "the result was cut at the row limit; ask for fewer rows or add a filter")
	}
	res.Warnings = append(res.Warnings, a.Host.Warnings(ctx, dec, runs, res)...)
	res.Answer = summary.Summarise(summary.RowsOf(res))
	cut := 0
	for _, r := range runs {
		if r.Err == nil && r.Rows != nil && r.Rows.Truncated {
			cut++
		}
	}
	if cut > 0 { // the figures leave out the rows the cut kept away: said first, not only in a warning
		res.Answer = fmt.Sprintf("Partial answer: %d of %d sub-queries were cut at their row limit, so the combination saw only part of their rows (see warnings). %s", cut, len(runs), res.Answer)
	}
	if _, err := a.Host.Hook(ctx, hooks.AfterAnswer, answerInput(q, srcs, runs, res)); err != nil {
		return nil, err
	}
	tm.Model = modelMS
	tm.Answer = sw.Lap()
	tm.Total = sw.Total()
	res.Timings = *tm
	return res, nil
}

// partFailed is the error of the first sub-query (in id order) that
// failed, or nil. A combination needs every part: one read as empty
// changed every figure without a sign (an anti-join counted every patient
// as without a visit while the visits' server was down). A rule's refusal
// is returned as it is; any other error keeps its code and whether a retry
// may succeed, and names the part.
func partFailed(ctx context.Context, dec *Decomposition, runs []SubRun) error {
	for i, r := range runs {
		if r.Err == nil {
			continue
		}
		ee := fault.AsError(fault.Deadline(ctx, r.Err))
		if ee.Code == fault.CodeRefusedByRule {
			return r.Err
		}
		s := dec.Subs[i]
		return &fault.Error{Code: ee.Code, Retryable: ee.Retryable, Hint: ee.Hint, Err: r.Err,
			Msg: fmt.Sprintf("sub-query %s (%q on %s) failed, so nothing was combined (a part read as empty would change every figure): %s", s.ID, s.Ref, s.Datasource, ee.Msg)}
	}
	return nil
}

// combine loads every sub-query's rows into DuckDB and runs the
// combination plan (Combine), under a "combine" span.
func (a Asker) combine(ctx context.Context, dec *Decomposition, runs []SubRun, rowLimit int) (*duckcompute.Output, []string, error) {
	ctx, sp := spans.Start(ctx, "combine", trace.WithAttributes(attribute.Int("nl2sql.subqueries", len(runs))))
	outs := make([]Outcome, len(runs))
	for i, r := range runs {
		outs[i] = Outcome{Rows: r.Rows, Filtered: Filters(r.Query.Plan)}
		if outs[i].Filtered {
			outs[i].Held = func(ctx context.Context, column string, keys []any) (map[string]bool, bool) {
				return a.Host.Held(ctx, r, column, keys)
			}
		}
	}
	out, warnings, err := Combine(ctx, dec, outs, rowLimit, a.Timeout)
	spans.End(sp, err)
	return out, warnings, err
}

// answerInput is what the after_answer hooks see of a combined result:
// every datasource and stored table the sub-queries read, the result's
// shape and the answer text (never the rows).
func answerInput(q string, srcs map[string]Source, runs []SubRun, res *result.Result) hooks.Input {
	in := hooks.Input{Question: q, Columns: res.Columns, RowCount: res.RowCount, Truncated: res.Truncated, Answer: res.Answer}
	for id := range srcs {
		in.Datasources = append(in.Datasources, id)
	}
	for _, r := range runs {
		if r.Query.Plan != nil {
			t, c := extend.PlanReads(r.Query.Datasource, r.Query.Plan)
			in.Tables, in.ReadColumns = append(in.Tables, t...), append(in.ReadColumns, c...)
		}
	}
	slices.Sort(in.Datasources)
	slices.Sort(in.Tables)
	slices.Sort(in.ReadColumns)
	in.Tables, in.ReadColumns = slices.Compact(in.Tables), slices.Compact(in.ReadColumns)
	return in
}

// BeforeExecution runs the before_execution hooks (through hook, the
// pipeline's hook step) for one sub-query, in its hook input. A rule that
// requires approval refuses it: an approval holds one query over one
// datasource, so a question across datasources cannot wait for one.
func BeforeExecution(ctx context.Context, hook func(context.Context, hooks.Point, hooks.Input) (hooks.Outcome, error), in hooks.Input) error {
	out, err := hook(ctx, hooks.BeforeExecution, in)
	if err != nil {
		return err
	}
	if out.NeedsApproval {
		return fault.Errorf(fault.CodeRefusedByRule, "ask about one datasource: a query over one datasource can be sent for approval",
			"a rule requires approval for part of this question, and approvals hold questions over one datasource")
	}
	return nil
}
