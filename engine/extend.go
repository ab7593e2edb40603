package engine

import (
	"context"
	"errors"
	"slices"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/extend"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Codes of the extension points (engine/hooks, approvals).
const (
	CodeRefusedByRule = fault.CodeRefusedByRule // an operator's hook refused the request (or failed closed)
	CodeNeedsApproval = fault.CodeNeedsApproval // a hook requires an approver before the query runs; see Error.ApprovalID
)

// gate runs the hooks and publishes the events (engine/extend).
func (e *Engine) gate() extend.Gate {
	return extend.Gate{Hooks: e.opts.Hooks, Events: e.opts.Events, Log: e.log}
}

// runOf is the run a hook decides on: the trace's id and start, the
// caller's identity.
func (e *Engine) runOf(ctx context.Context, tr *traceRec) extend.Run {
	id := e.caller(ctx).Identity()
	return extend.Run{ID: tr.T.ID, User: id.User, Roles: id.Roles, Started: tr.T.CreatedAt}
}

// hook runs the hooks of point p for the run (extend.Gate.Hook). Every
// call site names p as a hooks constant (an architecture test checks it).
func (e *Engine) hook(ctx context.Context, p hooks.Point, tr *traceRec, in hooks.Input) (hooks.Outcome, error) {
	if !e.opts.Hooks.Has(p) {
		return hooks.Outcome{Question: in.Question, Datasources: in.Datasources}, nil
	}
	return e.gate().Hook(ctx, p, e.runOf(ctx, tr), in)
}

// planInput describes a validated plan for the hooks: its canonical JSON
// and the stored tables and columns it reads ("ds.schema.table[.column]").
func planInput(ds *datasource, p *planned) hooks.Input {
	in := hooks.Input{Datasources: []string{ds.spec.ID}, Plan: p.plan.Canonical(), PlanSource: p.source}
	in.Tables, in.ReadColumns = extend.PlanReads(ds.spec.ID, p.plan)
	return in
}

// afterPlanning runs the after_planning hooks. A modified plan is decoded
// and validated for the caller like any other plan; p.planner (what the
// plan cache stores) keeps the planner's own plan.
func (e *Engine) afterPlanning(ctx context.Context, ds *datasource, q string, p *planned, tr *traceRec) (*planned, error) {
	if !e.opts.Hooks.Has(hooks.AfterPlanning) {
		return p, nil // the plan's hook input (its canonical JSON) is not built for nobody
	}
	in := planInput(ds, p)
	in.Question = q
	out, err := e.hook(ctx, hooks.AfterPlanning, tr, in)
	if err != nil || out.Plan == nil {
		return p, err
	}
	v, err := e.decodeValidate(ctx, ds, out.Plan)
	if err != nil {
		var pe *planast.Error
		if errors.As(err, &pe) {
			e.emit(ctx, events.ValidationFailed{RunID: tr.T.ID, Datasource: ds.spec.ID, Attempt: 0, Issues: len(pe.Issues), FirstCode: string(pe.FirstCode())})
			return nil, &Error{Code: CodeRefusedByRule, Msg: "a rule's change to the plan did not validate", Issues: pe.Issues,
				Hint: "the operator's after_planning hook produced an invalid plan; ask your administrator", Err: err}
		}
		return nil, AsError(err)
	}
	mod := *p
	mod.plan, mod.columns, mod.types, mod.warnings = v.Plan, v.Columns, v.Types, v.Warnings
	// Check round: every after_planning hook sees the changed plan with the
	// tables and columns it really reads (a rule listed before the changing
	// hook included); a hook that changes it again differently refuses.
	in = planInput(ds, &mod)
	in.Question = q
	chk, err := e.hook(ctx, hooks.AfterPlanning, tr, in)
	if err != nil {
		return nil, err
	}
	if chk.Plan != nil {
		again, err := planast.Decode(chk.Plan, planast.DefaultLimits)
		if err != nil || string(again.Canonical()) != string(v.Plan.Canonical()) {
			return nil, extend.Unstable("plan")
		}
	}
	return &mod, nil
}

// emit publishes ev to the bus and the request's event sink.
func (e *Engine) emit(ctx context.Context, ev events.Event) { e.gate().Emit(ctx, ev) }

// WithEventSink returns a context whose requests hand their caller-safe
// events (events.CallerSafe) to f. f must not block.
func WithEventSink(ctx context.Context, f func(events.Event)) context.Context {
	return extend.WithEventSink(ctx, f)
}

// runStarted emits run.started and runs the before_run hooks; it returns
// the run's context (whose step progress becomes step.started events) and
// the (possibly rewritten) question.
func (e *Engine) runStarted(ctx context.Context, kind, q string, tr *traceRec) (context.Context, string, error) {
	ctx = e.gate().WithRun(ctx, tr.T.ID)
	e.emit(ctx, events.RunStarted{RunID: tr.T.ID, Kind: kind, User: e.caller(ctx).Identity().User})
	if !e.opts.Hooks.Has(hooks.BeforeRun) {
		return ctx, q, nil
	}
	q, err := e.gate().BeforeRun(ctx, e.runOf(ctx, tr), q)
	return ctx, q, err
}

// runStartedFixed is runStarted for a path whose question is a stand-in
// (a supplied plan, a verified query by id): the before_run hooks decide
// on it as on a question (a time window refuses it, say), but what runs is
// fixed, so a rewrite has nothing to change and refuses (fail closed, as a
// plan change does on a verified query).
func (e *Engine) runStartedFixed(ctx context.Context, kind, q string, tr *traceRec) (context.Context, error) {
	ctx, got, err := e.runStarted(ctx, kind, q, tr)
	if err == nil && got != q {
		err = Errorf(CodeRefusedByRule, "ask the question in words (ask): a question can be rewritten by the rule",
			"a rule rewrites the question of this request, and %s has no question to rewrite", q)
	}
	return ctx, err
}

// runFinished emits the run's last events (extend.Gate.Finish): run.finished
// is the audit log's one line per run.
func (e *Engine) runFinished(ctx context.Context, kind string, tr *traceRec, res *Result, err error) {
	e.gate().Finish(ctx, extend.Finished{Run: e.runOf(ctx, tr), Kind: kind, Datasource: tr.T.Datasource,
		Rejected: tr.T.Rejected, Result: res, Err: err})
	finishRun(ctx, res, err)
}

// resolveOne resolves a run's single datasource, records it in the trace
// and runs the after_resolution hooks on it (every path that uses one
// datasource: ask, explain, run_plan, run_verified_query, approved runs).
func (e *Engine) resolveOne(ctx context.Context, id, q string, tr *traceRec) (*datasource, error) {
	ds, err := e.resolve(ctx, id)
	if err != nil {
		return nil, err
	}
	tr.T.Datasource = ds.spec.ID
	if _, err := e.resolved(ctx, q, []string{ds.spec.ID}, tr); err != nil {
		return nil, err
	}
	return ds, nil
}

// resolved runs the after_resolution hooks over the candidate set and
// checks the narrowed set against the caller's scope again.
func (e *Engine) resolved(ctx context.Context, q string, ids []string, tr *traceRec) ([]string, error) {
	out, err := e.hook(ctx, hooks.AfterResolution, tr, hooks.Input{Question: q, Datasources: ids})
	if err != nil {
		return nil, err
	}
	sc := e.caller(ctx)
	for _, id := range out.Datasources {
		if !slices.Contains(ids, id) || !sc.Reaches(id) {
			return nil, Errorf(CodeRefusedByRule, "ask your administrator", "a rule narrowed the datasources to one outside your scope")
		}
	}
	return out.Datasources, nil
}

// resultHook runs the after_execution or after_answer hooks (allow or deny
// only) with the result's shape: columns, row count, truncation and the
// answer text, never the rows.
func (e *Engine) resultHook(ctx context.Context, p hooks.Point, ds *datasource, q string, pl *planned, cols []string, n int, truncated bool, answer string, tr *traceRec) error {
	if !e.opts.Hooks.Has(p) {
		return nil
	}
	in := planInput(ds, pl)
	in.Question, in.Columns, in.RowCount, in.Truncated, in.Answer = q, cols, n, truncated, answer
	_, err := e.hook(ctx, p, tr, in)
	return err
}

// decodeValidate decodes a plan document with the language's limits and
// validates it for the caller (scope, row filters, snapshot).
func (e *Engine) decodeValidate(ctx context.Context, ds *datasource, doc []byte) (*validate.Result, error) {
	v, _, _, err := e.validateDoc(ctx, ds, doc)
	return v, err
}
