package engine

import (
	"context"
	"time"
)

// RunPlan runs a plan supplied by a client (an MCP client's own model, a
// person): decoded with the plan language's limits, validated against the
// datasource's snapshot, rendered and run read-only like a planner's plan.
// The result has plan_source "supplied"; a refused plan is an *Error with
// CodePlanInvalid and typed issues the client can act on. It passes the
// hooks as Ask does, from before_run on (there is no planning: the
// supplied plan meets the after_planning hooks as a planner's would). Without a
// datasource the caller's only visible one is used.
func (e *Engine) RunPlan(ctx context.Context, datasource string, doc []byte) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	today := e.opts.Today()
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: suppliedQuestion, Today: today, PlanSource: "supplied"}}
	ctx = e.startRun(ctx, "run_plan", tr)
	defer func() {
		if res != nil {
			tr.T.Timings, tr.T.SQL, tr.T.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, "run_plan", tr, res, err)
	}()
	if ctx, err = e.runStartedFixed(ctx, "run_plan", suppliedQuestion, tr); err != nil {
		return nil, err
	}
	ds, p, err := e.supplied(ctx, datasource, doc, tr, sw, &tm)
	if err != nil {
		return nil, err
	}
	tm.Plan = sw.Lap()
	ctx = stepSpan(ctx, "render")
	return e.finish(ctx, ds, suppliedQuestion, today, p, sw, &tm, tr)
}
