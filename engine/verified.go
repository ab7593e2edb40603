package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/verified"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/scope"
)

// verified is the verified-query step of Ask: when the question matches a
// verified query the caller may run, the model only fills its parameters
// (typed and checked by curated) and the human-written SQL runs, with no
// planner call (plan_source "verified"). Any failure falls back to the
// generated path: ok is false and the reason goes to the trace and the
// result's warnings.
func (e *Engine) verified(ctx context.Context, ds *datasource, q, today string, sw *stopwatch, tm *Timings, tr *traceRec) (*Result, bool, error) {
	if e.opts.Curated == nil {
		return nil, false, nil
	}
	sc := e.caller(ctx)
	ans, matched, err := e.opts.Curated.Answer(ctx, e.verifiedMatcher(ctx, ds, q), e.paramFiller(ds.spec.ID, today), tracedSource{ds.src}, ds.spec.ID, q, sc, ds.spec.RowLimit,
		verified.Gate(ctx, e.hookStep(tr), ds.spec.ID, q))
	if !matched {
		return nil, false, nil
	}
	if err != nil {
		reason, fatal := verified.Fallback(ctx, err)
		if fatal != nil {
			return nil, false, fatal
		}
		tr.Update(func(t *Trace) { t.VerifiedFallback = redact(reason) })
		e.log.Info("verified path fell back", "datasource", ds.spec.ID, "err", err)
		return nil, false, nil
	}
	tm.Plan, tm.Execute = 0, sw.Lap()
	calls := 0
	if len(ans.Query.Params) > 0 {
		calls = 1 // the parameter-filling call
	}
	out := verified.Result(verified.Ran{Question: q, Intent: q, SubID: subQueryID(ds.spec.ID, q), Datasource: ds.spec.ID,
		Dialect: ds.src.Dialect(), Query: ans.Query.ID, Params: ans.Params, ModelCalls: calls, CutWarning: true,
		TraceID: tr.T.ID, Execution: ans.Execution})
	out.Warnings = append(out.Warnings, e.argumentWarnings(ctx, ds, ans.Query, ans.Params, out.Rows)...)
	if err := verified.ResultHooks(ctx, e.hookStep(tr), ds.spec.ID, q, ans.Query, verified.ShapeOf(out)); err != nil {
		return nil, false, err
	}
	tm.Answer = sw.Lap()
	tm.Total = sw.Total()
	out.Timings = *tm
	return out, true, nil
}

// ListVerified lists the verified queries the caller may run on a
// datasource ("" for all), without their SQL.
//
// An unknown datasource, or one the caller does not reach, is
// DATASOURCE_NOT_FOUND (the same answer for both).
func (e *Engine) ListVerified(ctx context.Context, datasource string) ([]curated.Summary, error) {
	if datasource != "" {
		if _, known := e.specs[datasource]; !known || !e.reaches(ctx, datasource) {
			return nil, e.noDatasource(ctx, datasource)
		}
	}
	if e.opts.Curated == nil {
		return []curated.Summary{}, nil
	}
	return e.opts.Curated.List(e.caller(ctx), datasource), nil
}

// curatedHint says where verified queries are configured: under curated:
// in the config file, which a server started with --db has none of.
func (e *Engine) curatedHint() string {
	if e.opts.ConfigFile == config.FlagsLabel {
		return "verified queries need a config file: serve with --config nl2sql.yaml, its datasources listed there and a curated: key naming the verified queries file (a server started with --db has no config file)"
	}
	return "add verified queries with curated: in " + e.configFile()
}

// RunVerified runs a verified query by id with typed parameters, for the
// caller. An id the caller may not run is answered as unknown.
func (e *Engine) RunVerified(ctx context.Context, id string, params map[string]any) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	if e.opts.Curated == nil {
		return nil, Errorf(CodeInvalidRequest, e.curatedHint(), "no verified queries are configured")
	}
	sw := newStopwatch()
	var tm Timings
	question := "(verified query " + id + ")"
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: question, Today: e.opts.Today(), PlanSource: "verified"}}
	ctx = e.startRun(ctx, "run_verified_query", tr)
	defer func() { e.runFinished(ctx, "verified", tr, res, err) }()
	if ctx, err = e.runStartedFixed(ctx, "verified", question, tr); err != nil {
		return nil, err
	}
	q, ok := e.opts.Curated.Get(id)
	sc := e.caller(ctx)
	if !ok || !sc.Reaches(q.Datasource) {
		return nil, &Error{Code: CodeVerifiedNotFound, Msg: fmt.Sprintf("there is no verified query %q", id) + e.nearVerified(id, sc), Hint: "list_verified_queries shows the ones you may run"}
	}
	ctx = stepSpan(ctx, "resolve")
	ds, err := e.resolveOne(ctx, q.Datasource, question, tr)
	if err != nil {
		return nil, err
	}
	tm.Resolve = sw.Lap()
	ctx = stepSpan(ctx, "verified")
	ex, err := e.opts.Curated.RunByID(ctx, tracedSource{ds.src}, id, params, sc, ds.spec.RowLimit, verified.Gate(ctx, e.hookStep(tr), ds.spec.ID, question))
	if err != nil {
		if refusedByRule(err) {
			return nil, err
		}
		return nil, verified.Error(err, ds.spec.ID)
	}
	tm.Execute = sw.Lap()
	ctx = stepSpan(ctx, "answer")
	res = verified.Result(verified.Ran{Question: question, Intent: q.Description, SubID: subQueryID(ds.spec.ID, id),
		Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), Query: id, Params: params, TraceID: tr.T.ID, Execution: ex})
	res.Warnings = append(res.Warnings, e.argumentWarnings(ctx, ds, q, params, res.Rows)...)
	if err := verified.ResultHooks(ctx, e.hookStep(tr), ds.spec.ID, question, q, verified.ShapeOf(res)); err != nil {
		return nil, err
	}
	tm.Total = sw.Total()
	res.Timings = tm
	return res, nil
}

// argumentWarnings explains a verified query that matched nothing by the
// stored values its text arguments nearly are (engine/warnings), from
// the caller's view of the datasource.
func (e *Engine) argumentWarnings(ctx context.Context, ds *datasource, q *curated.Query, params map[string]any, rows [][]any) []string {
	var args []warnings.Argument
	for name, col := range q.ParamColumns() {
		if v, ok := params[name].(string); ok {
			args = append(args, warnings.Argument{Param: name, Value: v, Schema: col.Schema, Table: col.Table, Column: col.Column})
		}
	}
	if len(args) == 0 {
		return nil
	}
	sort.Slice(args, func(i, j int) bool { return args[i].Param < args[j].Param })
	return warnings.ArgumentWarnings(e.caller(ctx).FilterSnapshot(ds.snap), rows, args, e.retrieval(ctx, ds).StoredValues())
}

// paramFiller fills a matched verified query's parameters with the
// planner (engine/verified), the call recorded in the trace.
func (e *Engine) paramFiller(ds, today string) verified.ParamFiller {
	return verified.ParamFiller{Planner: e.opts.Planner, Datasource: ds, Today: today,
		Trace: func(ctx context.Context, req llm.Request, resp *llm.Response, err error) {
			traceCall(ctx, req, resp, err, 0)
		}}
}

// verifiedMatcher is the matcher of the verified queries on ds for one
// question (engine/verified), the stored values it names read within the
// caller's scope; when the phrase index cannot be built it is logged and
// word overlap serves.
func (e *Engine) verifiedMatcher(ctx context.Context, ds *datasource, question string) curated.Matcher {
	m, err := e.matcher.Matcher(ctx, e.opts.Curated, verified.Source{ID: ds.spec.ID, Version: ds.version, Index: ds.idx}, question, e.caller(ctx).Reader(ds.spec.ID))
	if err != nil {
		e.log.Warn("cannot index the verified queries; matching by word overlap", "datasource", ds.spec.ID, "err", err)
	}
	return m
}

// hookStep is the hook step of one run, as the step packages call it.
func (e *Engine) hookStep(tr *traceRec) verified.Hook {
	return func(ctx context.Context, p hooks.Point, in hooks.Input) (hooks.Outcome, error) {
		return e.hook(ctx, p, tr, in)
	}
}

// refusedByRule reports whether err is a rule's refusal or an approval
// stop: those end the request (fail closed), they never fall back to
// another path.
func refusedByRule(err error) bool { return fault.RefusedByRule(err) }

// nearVerified is "; did you mean "x"?" for the verified query id nearest
// a mistyped one among those sc may run (planast.Nearest), else "": an id
// is typed from memory of a listing, and one letter off found nothing.
func (e *Engine) nearVerified(id string, sc *scope.Scope) string {
	var ids []string
	for _, q := range e.opts.Curated.Runnable(sc, "") {
		ids = append(ids, q.ID)
	}
	if near := planast.Nearest(id, ids); near != "" {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return ""
}
