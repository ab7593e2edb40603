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
	ctx, tr, end, err := e.suppliedRun(ctx, "run_plan")
	defer func() { end(res, err) }()
	if err != nil {
		return nil, err
	}
	ds, p, err := e.supplied(ctx, datasource, doc, tr, sw, &tm)
	if err != nil {
		return nil, err
	}
	tm.Plan = sw.Lap()
	ctx = stepSpan(ctx, "render")
	return e.finish(ctx, ds, suppliedQuestion, tr.T.Today, p, sw, &tm, tr)
}

// suppliedRun starts a run of a client's plan (kind: run_plan,
// run_combined_plan): its trace record, the run's span and events, and
// the before_run hooks (err: one refused it); end, deferred whatever err
// is, records the result in the trace, writes it and finishes the run.
func (e *Engine) suppliedRun(ctx context.Context, kind string) (context.Context, *traceRec, func(*Result, error), error) {
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: suppliedQuestion, Today: e.opts.Today(), PlanSource: "supplied"}}
	ctx, err := e.runStartedFixed(e.startRun(ctx, kind, tr), kind, suppliedQuestion, tr)
	return ctx, tr, func(res *Result, err error) {
		if res != nil {
			tr.T.Timings, tr.T.SQL, tr.T.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, kind, tr, res, err)
	}, err
}
