package tools

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// Approver is what the approval tools need of the engine.
type Approver interface {
	MayDecide(ctx context.Context, id string) bool
	Decide(ctx context.Context, id string, approve bool) (*engine.Approval, error)
	RunApproved(ctx context.Context, id string) (*engine.Result, error)
}

// ApproveRunArgs is approve_run's input; Approve defaults to true.
type ApproveRunArgs struct {
	ApprovalID string `json:"approval_id"`
	Approve    *bool  `json:"approve,omitempty"`
}

// RunApprovedArgs is run_approved's input.
type RunApprovedArgs struct {
	ApprovalID string `json:"approval_id"`
}

const (
	approveRunShape  = `{"approval_id": string, "approve"?: boolean}`
	runApprovedShape = `{"approval_id": string}`
)

var approveRunInput = json.RawMessage(`{
  "type": "object",
  "properties": {
    "approval_id": {"type": "string", "maxLength": 64, "description": "The approval_id of a NEEDS_APPROVAL result."},
    "approve": {"type": "boolean", "description": "true (default) approves, false rejects."}
  },
  "required": ["approval_id"],
  "additionalProperties": false
}`)

var approveRunOutput = json.RawMessage(`{
  "type": "object",
  "properties": {
    "approval_id": {"type": "string"},
    "state": {"type": "string", "enum": ["pending", "approved", "rejected", "used"]},
    "user": {"type": "string"},
    "datasource": {"type": "string"},
    "question": {"type": "string"},
    "tables": {"type": "array", "items": {"type": "string"}},
    "sql": {"type": "string"}
  },
  "required": ["approval_id", "state"]
}`)

var runApprovedInput = json.RawMessage(`{
  "type": "object",
  "properties": {
    "approval_id": {"type": "string", "maxLength": 64, "description": "The approval_id of your NEEDS_APPROVAL result, once an approver approved it."}
  },
  "required": ["approval_id"],
  "additionalProperties": false
}`)

// ApproveRunTool describes approve_run: an approver decides a stopped run.
func ApproveRunTool() mcpgo.Tool {
	return mcpgo.NewTool("approve_run",
		mcpgo.WithDescription("Approve (or reject) a query that an operator's rule stopped with NEEDS_APPROVAL. Only callers holding an approver role may, and never for their own request. The asker then runs it with run_approved."),
		mcpgo.WithTitleAnnotation("Approve a stopped query"),
		rawInput(approveRunInput),
		mcpgo.WithRawOutputSchema(withErrorShape(approveRunOutput)),
		mcpgo.WithReadOnlyHintAnnotation(false),
		mcpgo.WithDestructiveHintAnnotation(false),
		mcpgo.WithIdempotentHintAnnotation(false),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
}

// ApproveRunHandler answers approve_run calls.
func ApproveRunHandler(eng Approver) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args ApproveRunArgs
		if bad := bindStrict(req, &args, approveRunShape); bad != nil {
			return bad, nil
		}
		approve := args.Approve == nil || *args.Approve
		a, err := eng.Decide(ctx, args.ApprovalID, approve)
		if err != nil {
			return errorResult(err), nil
		}
		return FitStructured(eng, a, "approval "+a.ID+" is "+a.State), nil
	}
}

// RunApprovedTool describes run_approved: the asker runs an approved query.
func RunApprovedTool() mcpgo.Tool {
	return readOnlyTool("run_approved", "Run an approved query",
		"Run the query of your NEEDS_APPROVAL result once an approver approved it. The plan is validated again for you and runs read-only with plan_source \"approved\"; an approval runs once.",
		runApprovedInput, askOutputSchema)
}

// RunApprovedHandler answers run_approved calls.
func RunApprovedHandler(eng Approver) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args RunApprovedArgs
		if bad := bindStrict(req, &args, runApprovedShape); bad != nil {
			return bad, nil
		}
		res, err := eng.RunApproved(withEvents(withProgress(ctx, req)), args.ApprovalID)
		if err != nil {
			return errorResult(err), nil
		}
		return FitResult(eng, res, BinaryPlaceholder), nil
	}
}

// approvalSchema is the form an inline approval asks for.
var approvalSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"approve": map[string]any{"type": "boolean", "title": "Run this query now"}},
	"required":   []string{"approve"},
}

// approveInline turns a NEEDS_APPROVAL error into an inline question when
// the client declared elicitation and the caller may approve (an approver,
// never for their own request unless single-user): on yes the approved
// plan runs at once. Otherwise the NEEDS_APPROVAL error stands, and an
// approver decides with approve_run.
func approveInline(ctx context.Context, eng Approver, err error) (*engine.Result, error) {
	e := engine.AsError(err)
	srv := server.ServerFromContext(ctx)
	if e.Code != engine.CodeNeedsApproval || e.ApprovalID == "" || srv == nil {
		return nil, err
	}
	// Ask only a client that declared elicitation (the MCP rule), and only
	// a caller who could approve: asking anyone else would mislead.
	sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || sess.GetClientCapabilities().Elicitation == nil || !eng.MayDecide(ctx, e.ApprovalID) {
		return nil, err
	}
	ans, eerr := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
		Message:         "An operator's rule asks for approval before this query runs (approval " + e.ApprovalID + "). Run it now?",
		RequestedSchema: approvalSchema,
	}})
	if eerr != nil || ans.Action != mcpgo.ElicitationResponseActionAccept {
		return nil, err
	}
	if m, ok := ans.Content.(map[string]any); !ok || m["approve"] != true {
		return nil, err
	}
	if _, derr := eng.Decide(ctx, e.ApprovalID, true); derr != nil {
		return nil, err // not an approver here: the approval stays pending
	}
	return eng.RunApproved(ctx, e.ApprovalID)
}
