package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Codes of the extension points (engine/hooks, approvals).
const (
	CodeRefusedByRule = fault.CodeRefusedByRule // an operator's hook refused the request (or failed closed)
	CodeNeedsApproval = fault.CodeNeedsApproval // a hook requires an approver before the query runs; see Error.ApprovalID
)

// hook runs the hooks of point p with the run's identity and time filled
// in. Every call site names p as a hooks constant (an architecture test
// checks it). A deny becomes CodeRefusedByRule naming only the rule; the
// reason goes to the log and the events, never to the caller.
func (e *Engine) hook(ctx context.Context, p hooks.Point, tr *traceRec, in hooks.Input) (hooks.Outcome, error) {
	if !e.opts.Hooks.Has(p) {
		return hooks.Outcome{Question: in.Question, Datasources: in.Datasources}, nil
	}
	id := e.caller(ctx).Identity()
	in.RunID, in.User, in.Roles = tr.t.ID, id.User, id.Roles
	in.Time = tr.t.CreatedAt.Format(time.RFC3339Nano)
	out, err := e.opts.Hooks.Run(ctx, p, in)
	for _, r := range out.Records {
		e.emit(ctx, events.HookDecision{RunID: tr.t.ID, Point: string(r.Point), Hook: r.Hook, Decision: string(r.Action), Reason: r.Reason, Failed: r.Failed})
	}
	var de *hooks.DeniedError
	if errors.As(err, &de) {
		e.log.Info("refused by rule", "run", tr.t.ID, "point", de.Point, "hook", de.Hook, "reason", de.Reason)
		return out, &Error{Code: CodeRefusedByRule, Msg: de.Error(), Hint: "an operator's rule does not allow this request; ask your administrator", Err: err}
	}
	return out, err
}

// planInput describes a validated plan for the hooks: its canonical JSON
// and the stored tables and columns it reads ("ds.schema.table[.column]").
func planInput(ds *datasource, p *planned) hooks.Input {
	in := hooks.Input{Datasources: []string{ds.spec.ID}, Plan: p.plan.Canonical(), PlanSource: p.source}
	in.Tables, in.ReadColumns = planReads(ds.spec.ID, p.plan)
	return in
}

// planReads lists the stored tables and columns a validated plan reads.
// A column is attributed to every stored table its alias names anywhere in
// the plan (over-approximating across subqueries, which only makes rules
// stricter).
func planReads(dsID string, q *planast.Query) (tables, columns []string) {
	aliases := map[string][]string{}
	planast.Inspect(q, func(n planast.Node) bool {
		if qq, ok := n.(*planast.Query); ok {
			for _, f := range qq.From {
				if f.Subquery == nil && f.Schema != "" {
					t := dsID + "." + f.Schema + "." + f.Table
					aliases[f.Alias] = append(aliases[f.Alias], t)
					tables = append(tables, t)
				}
			}
		}
		return true
	})
	planast.Inspect(q, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok {
			for _, t := range aliases[c.Table] {
				columns = append(columns, t+"."+c.Column)
			}
		}
		return true
	})
	slices.Sort(tables)
	slices.Sort(columns)
	return slices.Compact(tables), slices.Compact(columns)
}

// afterPlanning runs the after_planning hooks. A modified plan is decoded
// and validated for the caller like any other plan; p.planner (what the
// plan cache stores) keeps the planner's own plan.
func (e *Engine) afterPlanning(ctx context.Context, ds *datasource, q string, p *planned, tr *traceRec) (*planned, error) {
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
			e.emit(ctx, events.ValidationFailed{RunID: tr.t.ID, Datasource: ds.spec.ID, Attempt: 0, Issues: len(pe.Issues), FirstCode: string(pe.FirstCode())})
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
			return nil, unstable("plan")
		}
	}
	return &mod, nil
}

// unstable refuses a run whose hooks do not settle on one question or
// plan: after a rewrite or a change, every hook of the point runs again on
// the result, and a hook that changes it again differently means the hooks
// disagree (fail closed). A changing hook must be idempotent.
func unstable(what string) error {
	return Errorf(CodeRefusedByRule, "ask your administrator: a hook that changes the "+what+" must leave its own result unchanged",
		"the configured hooks do not agree on the %s", what)
}

// emit publishes ev to the configured bus and, when it is caller-safe, to
// the request's event sink (MCP progress).
func (e *Engine) emit(ctx context.Context, ev events.Event) {
	e.opts.Events.Publish(ctx, ev)
	if f, _ := ctx.Value(sinkKey{}).(func(events.Event)); f != nil && events.CallerSafe(ev.EventName()) {
		f(ev)
	}
}

type sinkKey struct{}

// WithEventSink returns a context whose requests hand their caller-safe
// events (events.CallerSafe) to f. f must not block.
func WithEventSink(ctx context.Context, f func(events.Event)) context.Context {
	return context.WithValue(ctx, sinkKey{}, f)
}

// runStarted emits run.started and runs the before_run hooks; it returns
// the run's context (whose step progress becomes step.started events) and
// the (possibly rewritten) question.
func (e *Engine) runStarted(ctx context.Context, kind, q string, tr *traceRec) (context.Context, string, error) {
	ctx = context.WithValue(ctx, runKey{}, &run{e: e, id: tr.t.ID})
	e.emit(ctx, events.RunStarted{RunID: tr.t.ID, Kind: kind, User: e.caller(ctx).Identity().User})
	out, err := e.hook(ctx, hooks.BeforeRun, tr, hooks.Input{Question: q})
	if err != nil {
		return ctx, "", err
	}
	if out.Question != q {
		// Check round: every before_run hook sees the rewritten question
		// (a pattern rule listed before the rewriting hook included).
		chk, err := e.hook(ctx, hooks.BeforeRun, tr, hooks.Input{Question: out.Question})
		if err != nil {
			return ctx, "", err
		}
		if chk.Question != out.Question {
			return ctx, "", unstable("question")
		}
	}
	return ctx, out.Question, nil
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

type runKey struct{}

// run is the engine and id of the run a context belongs to, and the step
// in progress.
type run struct {
	e    *Engine
	id   string
	mu   sync.Mutex
	step string
	t0   time.Time
}

// emitStep publishes step.finished for the step in progress and
// step.started for step (called from progress); step "" only finishes.
func emitStep(ctx context.Context, step string) {
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		return
	}
	r.mu.Lock()
	prev, t0 := r.step, r.t0
	r.step, r.t0 = step, time.Now()
	r.mu.Unlock()
	if prev != "" {
		r.e.emit(ctx, events.StepFinished{RunID: r.id, Step: prev, DurationMS: ms(time.Since(t0))})
	}
	if step != "" {
		r.e.emit(ctx, events.StepStarted{RunID: r.id, Step: step})
	}
}

// runFinished emits run.finished: the audit log's one line per run.
func (e *Engine) runFinished(ctx context.Context, kind string, tr *traceRec, res *Result, err error) {
	emitStep(ctx, "")
	for _, a := range tr.t.Rejected {
		first := ""
		if len(a.Issues) > 0 {
			first = string(a.Issues[0].Code)
		}
		e.emit(ctx, events.ValidationFailed{RunID: tr.t.ID, Datasource: tr.t.Datasource, Attempt: a.Attempt, Issues: len(a.Issues), FirstCode: first})
	}
	if res != nil && len(res.SubQueries) > 0 && res.SubQueries[0].PlanSource == "cache" {
		e.emit(ctx, events.CacheHit{RunID: tr.t.ID, Datasource: tr.t.Datasource})
	}
	id := e.caller(ctx).Identity()
	ev := events.RunFinished{RunID: tr.t.ID, Kind: kind, User: id.User, Roles: id.Roles, Datasource: tr.t.Datasource,
		Status: "ok", DurationMS: ms(time.Since(tr.t.CreatedAt))}
	if res != nil {
		ev.RowCount, ev.Truncated = res.RowCount, res.Truncated
		if len(res.SubQueries) > 0 {
			ev.PlanSource = res.SubQueries[0].PlanSource
		}
	}
	if err != nil {
		ae := AsError(err)
		ev.Status, ev.Code, ev.ApprovalID = "error", string(ae.Code), ae.ApprovalID
		if ae.Code == CodeNeedsApproval {
			ev.Status = "needs_approval"
		}
		if ae.Code == CodeAccessDenied {
			e.emit(ctx, events.AccessDenied{RunID: tr.t.ID, Datasource: tr.t.Datasource, Stage: "run"})
		}
	}
	e.emit(ctx, ev)
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
	tr.t.Datasource = ds.spec.ID
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
	in := planInput(ds, pl)
	in.Question, in.Columns, in.RowCount, in.Truncated, in.Answer = q, cols, n, truncated, answer
	_, err := e.hook(ctx, p, tr, in)
	return err
}

// decodeValidate decodes a plan document with the language's limits and
// validates it for the caller (scope, row filters, snapshot).
func (e *Engine) decodeValidate(ctx context.Context, ds *datasource, doc []byte) (*validate.Result, error) {
	plan, err := planast.Decode(doc, planast.DefaultLimits)
	if err != nil {
		return nil, err
	}
	return e.validateFor(ctx, ds, plan)
}

// warnUnmatchedRules logs, when a datasource opens, each built-in rule's
// table or column of that datasource that its schema lacks: such a name
// (a typo, a dropped table) matches nothing, so the rule protects nothing
// there. `nl2sql doctor` fails on the same names.
func (e *Engine) warnUnmatchedRules(ds *datasource) {
	for _, nr := range e.opts.Hooks.Rules() {
		var missing []string
		check := func(name string, column bool) {
			parts := strings.Split(name, ".")
			if len(parts) < 3 || parts[0] != ds.spec.ID {
				return
			}
			t, ok := lookupFold(ds.snap, parts[1], parts[2])
			if ok && column {
				ok = slices.ContainsFunc(t.Columns, func(c schema.Column) bool { return len(parts) == 4 && strings.EqualFold(c.Name, parts[3]) })
			}
			if !ok {
				missing = append(missing, name)
			}
		}
		for _, n := range append(slices.Clone(nr.Rule.DenyTables), nr.Rule.ApprovalTables...) {
			check(n, false)
		}
		for _, n := range nr.Rule.DenyColumns {
			check(n, true)
		}
		if len(missing) > 0 {
			e.log.Warn("a hook rule names what the datasource lacks, so it matches nothing there (see nl2sql doctor)",
				"hook", nr.Name, "datasource", ds.spec.ID, "names", strings.Join(missing, ", "))
		}
	}
}

// lookupFold finds a table by schema and name, case aside (as rules match).
func lookupFold(snap *schema.Snapshot, schemaName, table string) (*schema.Table, bool) {
	for i := range snap.Tables {
		t := &snap.Tables[i]
		if strings.EqualFold(t.Schema, schemaName) && strings.EqualFold(t.Name, table) {
			return t, true
		}
	}
	return nil, false
}
