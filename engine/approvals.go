package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/store"
)

// ApprovalStore keeps runs that wait for an approver (engine/store).
type ApprovalStore interface {
	PutApproval(ctx context.Context, id string, body []byte) error
	GetApproval(ctx context.Context, id string) (*store.Approval, error)
	MoveApproval(ctx context.Context, id, from, to, by string) (bool, error)
	ListApprovals(ctx context.Context, state string, limit int) ([]store.Approval, error)
}

// Approval is a stopped run as an approver sees it.
type Approval struct {
	ID         string          `json:"approval_id"`
	State      string          `json:"state"` // pending, approved, rejected, used
	User       string          `json:"user"`  // who asked
	Roles      []string        `json:"roles,omitempty"`
	Datasource string          `json:"datasource"`
	Question   string          `json:"question"`
	Reason     string          `json:"reason,omitempty"` // why a rule wants approval
	Tables     []string        `json:"tables"`
	Plan       json.RawMessage `json:"plan"`
	SQL        string          `json:"sql"`
	CreatedAt  time.Time       `json:"created_at"`
	DecidedBy  string          `json:"decided_by,omitempty"`
}

// requireApproval stores the run and returns the NEEDS_APPROVAL error.
func (e *Engine) requireApproval(ctx context.Context, ds *datasource, q string, p *planned, sql, reason string, tr *traceRec) error {
	if e.opts.Approvals == nil {
		return Errorf(CodeRefusedByRule, "set storage.path so approvals can be kept", "a rule requires approval and no state store is configured")
	}
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return AsError(fmt.Errorf("approval id: %w", err))
	}
	id := e.caller(ctx).Identity()
	in := planInput(ds, p)
	a := Approval{ID: "apr_" + hex.EncodeToString(b[:]), State: store.ApprovalPending, User: id.User, Roles: id.Roles,
		Datasource: ds.spec.ID, Question: q, Reason: reason, Tables: in.Tables, Plan: in.Plan, SQL: sql, CreatedAt: tr.t.CreatedAt}
	body, err := json.Marshal(a)
	if err != nil {
		return AsError(err)
	}
	if err := e.opts.Approvals.PutApproval(ctx, a.ID, body); err != nil {
		return &Error{Code: CodeInternal, Msg: "the approval could not be stored", Hint: "check storage.path", Err: err}
	}
	return &Error{Code: CodeNeedsApproval, ApprovalID: a.ID, Retryable: true,
		Msg:  "this query needs an approver's agreement before it runs (approval " + a.ID + ")",
		Hint: "ask an approver to run approve_run (or `nl2sql approvals approve " + a.ID + "`), then call run_approved with this approval_id"}
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
	in := planInput(ds, p)
	in.Question, in.SQL = q, sql
	out, err := e.hook(ctx, hooks.BeforeExecution, tr, in)
	if err != nil || !out.NeedsApproval || p.source == "approved" {
		return false, "", err
	}
	reason := ""
	for _, r := range out.Records {
		if r.Action == hooks.RequireApproval {
			reason = r.Reason
		}
	}
	return true, reason, nil
}

// isApprover reports whether the caller may decide approvals: a holder of
// one of Options.ApproverRoles, or the single user of a server without
// roles.
func (e *Engine) isApprover(ctx context.Context) bool {
	sc := e.caller(ctx)
	if sc.Unrestricted() && (e.opts.Policy == nil || !e.opts.Policy.Secured()) {
		return true
	}
	return slices.ContainsFunc(sc.Identity().Roles, func(r string) bool { return slices.Contains(e.opts.ApproverRoles, r) })
}

func (e *Engine) approvalStore() (ApprovalStore, error) {
	if e.opts.Approvals == nil {
		return nil, Errorf(CodeInvalidRequest, "set storage.path in the config", "no state store is configured, so there are no approvals")
	}
	return e.opts.Approvals, nil
}

// loadApproval reads approval id.
func (e *Engine) loadApproval(ctx context.Context, id string) (*Approval, error) {
	st, err := e.approvalStore()
	if err != nil {
		return nil, err
	}
	row, err := st.GetApproval(ctx, id)
	var se *store.Error
	if errors.As(err, &se) && se.Code == store.CodeNotFound {
		return nil, Errorf(CodeInvalidRequest, "use an approval_id from a NEEDS_APPROVAL result", "there is no approval %q", id)
	}
	if err != nil {
		return nil, AsError(err)
	}
	var a Approval
	if err := json.Unmarshal(row.Body, &a); err != nil {
		return nil, AsError(fmt.Errorf("approval %s: %w", id, err))
	}
	a.State, a.DecidedBy = row.State, row.DecidedBy
	return &a, nil
}

// Decide approves (or rejects) a pending approval. Only an approver may,
// and never for their own request. Errors: ACCESS_DENIED, INVALID_REQUEST
// (unknown id, not pending).
func (e *Engine) Decide(ctx context.Context, id string, approve bool) (*Approval, error) {
	if !e.isApprover(ctx) {
		return nil, Errorf(CodeAccessDenied, "ask a holder of an approver role (approvals.approver_roles)", "you may not decide approvals")
	}
	a, err := e.loadApproval(ctx, id)
	if err != nil {
		return nil, err
	}
	me := e.caller(ctx).Identity().User
	if me != "" && me == a.User {
		return nil, Errorf(CodeAccessDenied, "another approver must decide", "you may not approve your own request")
	}
	to := store.ApprovalRejected
	if approve {
		to = store.ApprovalApproved
	}
	ok, err := e.opts.Approvals.MoveApproval(ctx, id, store.ApprovalPending, to, me)
	if err != nil {
		return nil, AsError(err)
	}
	if !ok {
		return nil, Errorf(CodeInvalidRequest, "only a pending approval can be decided", "approval %s is %s", id, a.State)
	}
	e.emit(ctx, events.ApprovalDecided{ApprovalID: id, Approver: me, Approved: approve})
	a.State, a.DecidedBy = to, me
	return a, nil
}

// MayDecide reports whether the caller could decide approval id: an
// approver, and not its asker (the single user of a server without roles
// decides their own). It changes nothing; Decide checks again.
func (e *Engine) MayDecide(ctx context.Context, id string) bool {
	if !e.isApprover(ctx) {
		return false
	}
	a, err := e.loadApproval(ctx, id)
	if err != nil {
		return false
	}
	me := e.caller(ctx).Identity().User
	return me == "" || me != a.User
}

// Approvals lists approvals in state ("" for all), for approvers.
func (e *Engine) Approvals(ctx context.Context, state string) ([]Approval, error) {
	if !e.isApprover(ctx) {
		return nil, Errorf(CodeAccessDenied, "ask a holder of an approver role (approvals.approver_roles)", "you may not list approvals")
	}
	switch state {
	case "", store.ApprovalPending, store.ApprovalApproved, store.ApprovalRejected, store.ApprovalUsed:
	default:
		return nil, Errorf(CodeInvalidRequest, "use pending, approved, rejected, used, or \"\" for all", "%q is not an approval state", state)
	}
	st, err := e.approvalStore()
	if err != nil {
		return nil, err
	}
	rows, err := st.ListApprovals(ctx, state, 0)
	if err != nil {
		return nil, AsError(err)
	}
	out := []Approval{}
	for _, r := range rows {
		var a Approval
		if json.Unmarshal(r.Body, &a) == nil {
			a.State, a.DecidedBy = r.State, r.DecidedBy
			out = append(out, a)
		}
	}
	return out, nil
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
	tr := &traceRec{t: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: "(approved " + id + ")", Today: today, PlanSource: "approved"}}
	ctx = e.startRun(withTrace(ctx, tr), "run_approved", tr)
	defer func() { // every attempt is a run in the audit log, refused ones too
		if res != nil {
			tr.t.Timings, tr.t.SQL, tr.t.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, "approved", tr, res, err)
	}()
	a, err := e.loadApproval(ctx, id)
	if err != nil {
		return nil, err
	}
	if e.caller(ctx).Identity().User != a.User {
		return nil, Errorf(CodeAccessDenied, "only the caller who asked may run an approved query", "approval %s is not yours", id)
	}
	if a.State != store.ApprovalApproved {
		hint := map[string]string{
			store.ApprovalPending:  "wait for an approver to approve it",
			store.ApprovalRejected: "an approver rejected it; ask again, or ask an approver why",
			store.ApprovalUsed:     "an approval runs once and this one has run; ask again for a new one",
		}[a.State]
		return nil, Errorf(CodeInvalidRequest, hint, "approval %s is %s, not approved", id, a.State)
	}
	tr.t.Question = redact(a.Question)
	ctx, q, err := e.runStarted(ctx, "approved", a.Question, tr)
	if err != nil {
		return nil, err
	}
	ctx = stepSpan(ctx, "resolve")
	ds, err := e.resolveOne(ctx, a.Datasource, q, tr)
	if err != nil {
		return nil, err
	}
	tm.Resolve = sw.lap()
	v, err := e.decodeValidate(ctx, ds, a.Plan)
	if err != nil {
		return nil, &Error{Code: CodePlanInvalid, Msg: "the approved plan no longer validates for you: " + err.Error(), Hint: "ask the question again", Err: err}
	}
	if ok, err := e.opts.Approvals.MoveApproval(ctx, id, store.ApprovalApproved, store.ApprovalUsed, a.DecidedBy); err != nil || !ok {
		return nil, Errorf(CodeInvalidRequest, "ask the question again", "approval %s was already used", id)
	}
	tm.Plan = sw.lap()
	p := &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "approved", warnings: v.Warnings}
	res, err = e.finish(ctx, ds, q, today, p, sw, &tm, tr)
	if err != nil && refusedByRule(err) {
		// A rule refused it (one added since the approval, say): nothing
		// reached the caller, so the approval is not spent.
		if _, merr := e.opts.Approvals.MoveApproval(context.WithoutCancel(ctx), id, store.ApprovalUsed, store.ApprovalApproved, a.DecidedBy); merr != nil {
			e.log.Warn("cannot restore a refused approval", "approval", id, "err", merr)
		}
	}
	return res, err
}
