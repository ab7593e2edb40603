package engine

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/approval"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
)

// ApprovalStore keeps runs that wait for an approver (internal/store).
type ApprovalStore = approval.Store

// Approval is a stopped run as an approver sees it (engine/approval).
type Approval = approval.Approval

// desk is the engine's approvals: its store and its approver roles.
func (e *Engine) desk() *approval.Desk {
	return &approval.Desk{Store: e.opts.Approvals, ApproverRoles: e.opts.ApproverRoles}
}

// approvalCaller is the caller as the approval rules see it; the single
// user of a server without roles approves their own runs.
func (e *Engine) approvalCaller(ctx context.Context) approval.Caller {
	sc := e.caller(ctx)
	id := sc.Identity()
	return approval.Caller{User: id.User, Roles: id.Roles, SingleUser: sc.Unrestricted() && (e.opts.Policy == nil || !e.opts.Policy.Secured())}
}

// requireApproval stores the run and returns the NEEDS_APPROVAL error.
func (e *Engine) requireApproval(ctx context.Context, ds *datasource, q string, p *planned, sql, reason string, tr *traceRec) error {
	id := e.caller(ctx).Identity()
	in := planInput(ds, p)
	return e.desk().Hold(ctx, Approval{User: id.User, Roles: id.Roles, Datasource: ds.spec.ID, Question: q, Reason: reason,
		Tables: in.Tables, Plan: in.Plan, SQL: sql, CreatedAt: tr.T.CreatedAt})
}

// beforeExecution runs the before_execution hooks; a require_approval
// decision stops a run that is not already approved.
func (e *Engine) beforeExecution(ctx context.Context, ds *datasource, q string, p *planned, sql string, tr *traceRec) error {
	needs, reason, err := e.executionHooks(ctx, ds, q, p, sql, tr)
	if err != nil || !needs {
		return err
	}
	return e.requireApproval(ctx, ds, q, p, sql, reason, tr)
}

// executionHooks runs the before_execution hooks and reports whether a
// rule requires an approval the plan does not have yet, and the rule's
// reason.
func (e *Engine) executionHooks(ctx context.Context, ds *datasource, q string, p *planned, sql string, tr *traceRec) (bool, string, error) {
	if !e.opts.Hooks.Has(hooks.BeforeExecution) {
		return false, "", nil
	}
	in := planInput(ds, p)
	in.Question, in.SQL = q, sql
	out, err := e.hook(ctx, hooks.BeforeExecution, tr, in)
	if err != nil || !out.NeedsApproval || p.source == "approved" {
		return false, "", err
	}
	return true, out.ApprovalReason(), nil
}

// Decide approves (or rejects) a pending approval. Only an approver may,
// and never for their own request. Errors: ACCESS_DENIED, INVALID_REQUEST
// (unknown id, not pending).
func (e *Engine) Decide(ctx context.Context, id string, approve bool) (*Approval, error) {
	a, err := e.desk().Decide(ctx, e.approvalCaller(ctx), id, approve)
	if err != nil {
		return nil, err
	}
	e.emit(ctx, events.ApprovalDecided{ApprovalID: id, Approver: a.DecidedBy, Approved: approve})
	return a, nil
}

// MayDecide reports whether the caller could decide approval id: an
// approver, and not its asker (the single user of a server without roles
// decides their own). It changes nothing; Decide checks again.
func (e *Engine) MayDecide(ctx context.Context, id string) bool {
	return e.desk().MayDecide(ctx, e.approvalCaller(ctx), id)
}

// Approvals lists approvals in state ("" for all), for approvers.
func (e *Engine) Approvals(ctx context.Context, state string) ([]Approval, error) {
	return e.desk().List(ctx, e.approvalCaller(ctx), state)
}

// RunApproved runs an approved plan for the caller who asked for it: the
// plan is validated again for that caller (scope, row filters, the current
// snapshot), every hook runs again except that require_approval is now
// satisfied, and the result has plan_source "approved". An approval runs
// once.
func (e *Engine) RunApproved(ctx context.Context, id string) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	today := e.opts.Today()
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: "(approved " + id + ")", Today: today, PlanSource: "approved"}}
	ctx = e.startRun(withTrace(ctx, tr), "run_approved", tr)
	defer func() { // every attempt is a run in the audit log, refused ones too
		if res != nil {
			tr.T.Timings, tr.T.SQL, tr.T.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, "approved", tr, res, err)
	}()
	a, err := e.desk().Approved(ctx, e.approvalCaller(ctx), id)
	if err != nil {
		return nil, err
	}
	tr.T.Question = redact(a.Question)
	ctx, q, err := e.runStarted(ctx, "approved", a.Question, tr)
	if err != nil {
		return nil, err
	}
	ctx = stepSpan(ctx, "resolve")
	ds, err := e.resolveOne(ctx, a.Datasource, q, tr)
	if err != nil {
		return nil, err
	}
	tm.Resolve = sw.Lap()
	v, err := e.decodeValidate(ctx, ds, a.Plan)
	if err != nil {
		return nil, &Error{Code: CodePlanInvalid, Msg: "the approved plan no longer validates for you: " + err.Error(), Hint: "ask the question again", Err: err}
	}
	if err := e.desk().Spend(ctx, a); err != nil {
		return nil, err
	}
	tm.Plan = sw.Lap()
	p := &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "approved", warnings: v.Warnings}
	res, err = e.finish(ctx, ds, q, today, p, sw, &tm, tr)
	if err != nil && refusedByRule(err) {
		// A rule refused it (one added since the approval, say): nothing
		// reached the caller, so the approval is not spent.
		if merr := e.desk().Restore(context.WithoutCancel(ctx), a); merr != nil {
			e.log.Warn("cannot restore a refused approval", "approval", id, "err", merr)
		}
	}
	return res, err
}
