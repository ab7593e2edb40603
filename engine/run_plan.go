package engine

import (
	"context"
	"errors"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/planast"
)

// RunPlan runs a plan supplied by a client (an MCP client's own model, a
// person): decoded with the plan language's limits, validated against the
// datasource's snapshot, rendered and run read-only like a planner's plan.
// The result has plan_source "supplied"; a refused plan is an *Error with
// CodePlanInvalid and typed issues the client can act on.
func (e *Engine) RunPlan(ctx context.Context, datasource string, doc []byte) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	if datasource == "" {
		return nil, Errorf(CodeInvalidRequest, "name a datasource from list_datasources", "run_plan needs a datasource")
	}
	today := e.opts.Today()
	tr := &traceRec{t: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: "(supplied plan)", Today: today, PlanSource: "supplied"}}
	defer func() {
		if res != nil {
			tr.t.Timings, tr.t.SQL, tr.t.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, "run_plan", tr, res, err)
	}()
	e.emit(ctx, events.RunStarted{RunID: tr.t.ID, Kind: "run_plan", User: e.caller(ctx).Identity().User})
	ds, err := e.resolveOne(ctx, datasource, "(supplied plan)", tr)
	if err != nil {
		return nil, err
	}
	tm.Resolve = sw.lap()
	v, err := e.decodeValidate(ctx, ds, doc)
	if err != nil {
		var pe *planast.Error
		if errors.As(err, &pe) {
			tr.t.Rejected = []Attempt{{Attempt: 1, Issues: pe.Issues}}
			return nil, &Error{Code: CodePlanInvalid, Msg: pe.Error(), Issues: pe.Issues,
				Hint: "fix the listed issues (each names its path in the plan); get_plan_schema describes the language", Err: err}
		}
		return nil, AsError(err)
	}
	tm.Plan = sw.lap()
	p := &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "supplied", attempts: 0, warnings: v.Warnings}
	p.planner, _ = planast.Decode(doc, planast.DefaultLimits) // decoded above; what it names of the semantic layer is reported
	return e.finish(ctx, ds, "(supplied plan)", today, p, sw, &tm, tr)
}
