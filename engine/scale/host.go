package scale

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Model answers one structured model call: the planner, the selector.
// *llm.Replay and the live providers implement it.
type Model interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// Host is what one scaled question needs of the pipeline that asks it.
// Scaling never reaches a datasource, a hook, a policy or a trace itself:
// every candidate goes through these calls, which are the same steps a
// single plan takes, so a candidate can do nothing the single call could
// not. P is the host's validated plan, opaque here.
type Host[P any] interface {
	// PlanRequest is attempt a of the single-call planner request, with
	// the typed issues of the attempt before it.
	PlanRequest(issues []planast.Issue, attempt int) llm.Request
	// Validate decodes a planner answer and validates its plan for the
	// caller (schema, access policy, row filters). A *planast.Error in the
	// chain sends the candidate back to the planner with its issues.
	Validate(ctx context.Context, answer json.RawMessage) (P, error)
	// Gate passes a plan through the hooks that come before its run
	// (after_planning, which may change it, then before_execution) and
	// renders it.
	Gate(ctx context.Context, p P) (Gated[P], error)
	// Execute runs sql read-only within the request's limits, with p's
	// column types applied to the rows.
	Execute(ctx context.Context, p P, sql string) (*source.Result, error)
	// CheckResult passes a result through the after_execution hooks before
	// any model or caller sees its rows; an error keeps them from both.
	CheckResult(ctx context.Context, p P, rows *source.Result) error
	// Hold stores a held plan for an approver and returns the
	// NEEDS_APPROVAL error that names it.
	Hold(ctx context.Context, p P, sql, reason string) error
	// TraceCall records one model call of the run in the request's trace.
	TraceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration)
}

// Gated is a plan the hooks before its run let through: the plan to run
// (after_planning may have changed it) and its SQL; Held when a rule
// requires approval before it runs, with the rule's Reason.
type Gated[P any] struct {
	Plan   P
	SQL    string
	Held   bool
	Reason string
}
