// Package approval keeps runs that an operator's rule stopped for an
// approver, and decides who may do what with them.
//
// It owns the Approval record, the Store it is kept in (internal/store
// implements it), and the rules of the four-eyes process: only a holder of
// an approver role decides (the single user of a server without roles
// counts as one), never on their own request; an approval goes pending →
// approved or rejected → used, once; only the caller who asked may run it.
// It never runs a plan, never re-validates one and never runs hooks: the
// engine holds a run here when before_execution requires approval
// (engine/approvals.go), and RunApproved takes the plan through the whole
// pipeline again for the asker, spending the approval only once the run
// may start and restoring it when a rule refuses the run.
//
// Worked example:
//
//	desk := &approval.Desk{Store: st, ApproverRoles: []string{"lead"}}
//	err := desk.Hold(ctx, approval.Approval{User: "ana", Datasource: "chinook", SQL: sql, …})
//	// err: NEEDS_APPROVAL, ApprovalID "apr_…" (24 hex digits), state pending
//	desk.Decide(ctx, approval.Caller{User: "ana", Roles: []string{"lead"}}, id, true)
//	// ACCESS_DENIED: you may not approve your own request
//	desk.Decide(ctx, approval.Caller{User: "bo", Roles: []string{"lead"}}, id, true)
//	// state approved, DecidedBy "bo"
//	a, _ := desk.Approved(ctx, approval.Caller{User: "ana"}, id) // bo would get ACCESS_DENIED
//	desk.Spend(ctx, a) // used; a second Spend: INVALID_REQUEST, already used
package approval
