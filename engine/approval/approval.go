package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/internal/store"
)

// Store keeps runs that wait for an approver (internal/store implements it).
type Store interface {
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

// Caller is who asks, as authentication established it: the user, the
// roles, and SingleUser for the one user of a server without roles (who
// approves their own runs).
type Caller struct {
	User       string
	Roles      []string
	SingleUser bool
}

// Desk is an engine's approvals: where they are kept (nil: no state store,
// so a rule's require_approval refuses the run) and which roles decide.
type Desk struct {
	Store         Store
	ApproverRoles []string
}

// Hold stores a run for an approver, pending, under a new random id and
// returns the NEEDS_APPROVAL error that names it.
func (d *Desk) Hold(ctx context.Context, a Approval) error {
	if d.Store == nil {
		return fault.Errorf(fault.CodeRefusedByRule, "set storage.path so approvals can be kept", "a rule requires approval and no state store is configured")
	}
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fault.AsError(fmt.Errorf("approval id: %w", err))
	}
	a.ID, a.State = "apr_"+hex.EncodeToString(b[:]), store.ApprovalPending
	body, err := json.Marshal(a)
	if err != nil {
		return fault.AsError(err)
	}
	if err := d.Store.PutApproval(ctx, a.ID, body); err != nil {
		return &fault.Error{Code: fault.CodeInternal, Msg: "the approval could not be stored", Hint: "check storage.path", Err: err}
	}
	return &fault.Error{Code: fault.CodeNeedsApproval, ApprovalID: a.ID, Retryable: true,
		Msg:  "this query needs an approver's agreement before it runs (approval " + a.ID + ")",
		Hint: "ask an approver to run approve_run (or `nl2sql approvals approve " + a.ID + "`), then call run_approved with this approval_id"}
}

// isApprover reports whether c may decide approvals: a holder of one of
// the approver roles, or the single user of a server without roles.
func (d *Desk) isApprover(c Caller) bool {
	if c.SingleUser {
		return true
	}
	return slices.ContainsFunc(c.Roles, func(r string) bool { return slices.Contains(d.ApproverRoles, r) })
}

func (d *Desk) store() (Store, error) {
	if d.Store == nil {
		return nil, fault.Errorf(fault.CodeInvalidRequest, "set storage.path in the config", "no state store is configured, so there are no approvals")
	}
	return d.Store, nil
}

// Get reads approval id, in any state.
func (d *Desk) Get(ctx context.Context, id string) (*Approval, error) {
	st, err := d.store()
	if err != nil {
		return nil, err
	}
	row, err := st.GetApproval(ctx, id)
	var se *store.Error
	if errors.As(err, &se) && se.Code == store.CodeNotFound {
		return nil, fault.Errorf(fault.CodeInvalidRequest, "use an approval_id from a NEEDS_APPROVAL result", "there is no approval %q", id)
	}
	if err != nil {
		return nil, fault.AsError(err)
	}
	var a Approval
	if err := json.Unmarshal(row.Body, &a); err != nil {
		return nil, fault.AsError(fmt.Errorf("approval %s: %w", id, err))
	}
	a.State, a.DecidedBy = row.State, row.DecidedBy
	return &a, nil
}

// Decide approves (or rejects) a pending approval. Only an approver may,
// and never for their own request. Errors: ACCESS_DENIED, INVALID_REQUEST
// (unknown id, not pending).
func (d *Desk) Decide(ctx context.Context, c Caller, id string, approve bool) (*Approval, error) {
	if !d.isApprover(c) {
		return nil, fault.Errorf(fault.CodeAccessDenied, "ask a holder of an approver role (approvals.approver_roles)", "you may not decide approvals")
	}
	a, err := d.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	me := c.User
	if me != "" && me == a.User {
		return nil, fault.Errorf(fault.CodeAccessDenied, "another approver must decide", "you may not approve your own request")
	}
	to := store.ApprovalRejected
	if approve {
		to = store.ApprovalApproved
	}
	ok, err := d.Store.MoveApproval(ctx, id, store.ApprovalPending, to, me)
	if err != nil {
		return nil, fault.AsError(err)
	}
	if !ok {
		return nil, fault.Errorf(fault.CodeInvalidRequest, "only a pending approval can be decided", "approval %s is %s", id, a.State)
	}
	a.State, a.DecidedBy = to, me
	return a, nil
}

// MayDecide reports whether c could decide approval id: an approver, and
// not its asker (the single user of a server without roles decides their
// own). It changes nothing; Decide checks again.
func (d *Desk) MayDecide(ctx context.Context, c Caller, id string) bool {
	if !d.isApprover(c) {
		return false
	}
	a, err := d.Get(ctx, id)
	if err != nil {
		return false
	}
	return c.User == "" || c.User != a.User
}

// List lists approvals in state ("" for all), for approvers.
func (d *Desk) List(ctx context.Context, c Caller, state string) ([]Approval, error) {
	if !d.isApprover(c) {
		return nil, fault.Errorf(fault.CodeAccessDenied, "ask a holder of an approver role (approvals.approver_roles)", "you may not list approvals")
	}
	switch state {
	case "", store.ApprovalPending, store.ApprovalApproved, store.ApprovalRejected, store.ApprovalUsed:
	default:
		return nil, fault.Errorf(fault.CodeInvalidRequest, "use pending, approved, rejected, used, or \"\" for all", "%q is not an approval state", state)
	}
	st, err := d.store()
	if err != nil {
		return nil, err
	}
	rows, err := st.ListApprovals(ctx, state, 0)
	if err != nil {
		return nil, fault.AsError(err)
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

// Approved is approval id for the run that c asks for: only its asker may
// run it, and only once it is approved. It changes nothing; Spend does.
func (d *Desk) Approved(ctx context.Context, c Caller, id string) (*Approval, error) {
	a, err := d.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.User != a.User {
		return nil, fault.Errorf(fault.CodeAccessDenied, "only the caller who asked may run an approved query", "approval %s is not yours", id)
	}
	if a.State != store.ApprovalApproved {
		hint := map[string]string{
			store.ApprovalPending:  "wait for an approver to approve it",
			store.ApprovalRejected: "an approver rejected it; ask again, or ask an approver why",
			store.ApprovalUsed:     "an approval runs once and this one has run; ask again for a new one",
		}[a.State]
		return nil, fault.Errorf(fault.CodeInvalidRequest, hint, "approval %s is %s, not approved", id, a.State)
	}
	return a, nil
}

// Spend marks an approved approval used: an approval runs once, and of two
// concurrent runs only one spends it.
func (d *Desk) Spend(ctx context.Context, a *Approval) error {
	if ok, err := d.Store.MoveApproval(ctx, a.ID, store.ApprovalApproved, store.ApprovalUsed, a.DecidedBy); err != nil || !ok {
		return fault.Errorf(fault.CodeInvalidRequest, "ask the question again", "approval %s was already used", a.ID)
	}
	return nil
}

// Restore gives back a spent approval whose run a rule refused before
// anything reached the caller.
func (d *Desk) Restore(ctx context.Context, a *Approval) error {
	_, err := d.Store.MoveApproval(ctx, a.ID, store.ApprovalUsed, store.ApprovalApproved, a.DecidedBy)
	return err
}
