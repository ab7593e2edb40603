package extend

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/result"
)

// Finished is a run as its last events report it.
type Finished struct {
	Run        Run
	Kind       string // ask, plan, verified, approved, …
	Datasource string // the datasource(s) answered from, joined by ","
	// Rejected are the plans validation refused on the way.
	Rejected []result.Attempt
	Result   *result.Result // nil when the run failed
	Err      error
}

// Finish ends the run's step events and emits what it did: one
// validation.failed per refused plan, cache.hit, access.denied for a run
// refused by scope, and run.finished, the audit log's one line per run
// (who, on what, with what status and code, never the rows).
func (g Gate) Finish(ctx context.Context, f Finished) {
	Step(ctx, "")
	id, res := f.Run.ID, f.Result
	for _, a := range f.Rejected {
		first := ""
		if len(a.Issues) > 0 {
			first = string(a.Issues[0].Code)
		}
		g.Emit(ctx, events.ValidationFailed{RunID: id, Datasource: f.Datasource, Attempt: a.Attempt, Issues: len(a.Issues), FirstCode: first})
	}
	if res != nil && len(res.SubQueries) > 0 && res.SubQueries[0].PlanSource == "cache" {
		g.Emit(ctx, events.CacheHit{RunID: id, Datasource: f.Datasource})
	}
	ev := events.RunFinished{RunID: id, Kind: f.Kind, User: f.Run.User, Roles: f.Run.Roles, Datasource: f.Datasource,
		Status: "ok", DurationMS: ms(time.Since(f.Run.Started))}
	if res != nil {
		ev.RowCount, ev.Truncated = res.RowCount, res.Truncated
		if len(res.SubQueries) > 0 {
			ev.PlanSource = res.SubQueries[0].PlanSource
		}
	}
	if f.Err != nil {
		ae := fault.AsError(f.Err)
		ev.Status, ev.Code, ev.ApprovalID = "error", string(ae.Code), ae.ApprovalID
		if ae.Code == fault.CodeNeedsApproval {
			ev.Status = "needs_approval"
		}
		if ae.Code == fault.CodeAccessDenied {
			g.Emit(ctx, events.AccessDenied{RunID: id, Datasource: f.Datasource, Stage: "run"})
		}
	}
	g.Emit(ctx, ev)
}
