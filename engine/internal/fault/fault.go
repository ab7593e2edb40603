// Package fault holds the product's one boundary error type and the
// mappings onto it that every step package shares. Package engine re-exports
// it as engine.Error, engine.Code and the Code constants (type aliases), so
// callers outside the engine only ever see engine.Error.
//
// It owns the codes, the Error and its JSON body, and the translation of a
// model provider's, a datasource adapter's, a deadline's and a
// cancellation's errors into codes. It
// never decides a request's outcome and never logs: the step that hits an
// error builds it, and the MCP tools and the CLI show it.
//
// Worked example:
//
//	err := fault.Errorf(fault.CodePlanInvalid, "rephrase the question", "no plan in %d attempts", 3)
//	// err.Error() = "PLAN_INVALID: no plan in 3 attempts (hint: rephrase the question)"
//	fault.AsError(errors.New("boom")).Code // CodeInternal
package fault

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Code classifies an error at the product's boundary (CLI exit messages, MCP
// tool errors). Codes are stable strings clients may switch on.
type Code string

// Error codes.
const (
	CodeInvalidRequest     Code = "INVALID_REQUEST"          // bad arguments: empty question, unknown datasource
	CodeDatasourceNotFound Code = "DATASOURCE_NOT_FOUND"     // no such datasource (or one the caller may not see)
	CodeDatasourceDown     Code = "DATASOURCE_UNAVAILABLE"   // missing, locked or corrupt database
	CodePlanInvalid        Code = "PLAN_INVALID"             // the plan failed validation after every repair attempt
	CodeNoRecording        Code = "NO_RECORDING"             // replay has no recorded answer for this request
	CodeNoPlanner          Code = "NO_PLANNER"               // no model is configured: the host plans (engine/hostplan)
	CodeInvalidDatabase    Code = "INVALID_DATABASE"         // a --db argument names no usable database
	CodeProvider           Code = "PROVIDER_ERROR"           // the model provider failed
	CodeReadOnly           Code = "READ_ONLY_VIOLATION"      // the database refused a statement as not read-only
	CodeAccessDenied       Code = "ACCESS_DENIED"            // the caller may not read what the request needs
	CodeVerifiedNotFound   Code = "VERIFIED_QUERY_NOT_FOUND" // no such verified query (or one the caller may not run)
	CodeInvalidParams      Code = "INVALID_PARAMS"           // a verified query's parameter failed its check
	CodeTimeout            Code = "TIMEOUT"                  // the query or the model call ran past its limit
	CodeCancelled          Code = "CANCELLED"                // the caller cancelled
	CodeQueryFailed        Code = "QUERY_FAILED"             // the database rejected the rendered query
	CodeOverflow           Code = "ARITHMETIC_OVERFLOW"      // a computed number beyond its type's range, on every engine
	CodeInternal           Code = "INTERNAL"                 // a bug: please report it
	CodeRefusedByRule      Code = "REFUSED_BY_RULE"          // an operator's hook refused the request (or failed closed)
	CodeNeedsApproval      Code = "NEEDS_APPROVAL"           // a hook requires an approver before the query runs; see Error.ApprovalID
)

// Error is the one error type at the product's boundary. Msg is safe to
// show to the caller; Hint says what to do next; Retryable says whether the
// same request may succeed later. Err keeps the cause for errors.Is/As.
type Error struct {
	Code      Code
	Msg       string
	Hint      string
	Retryable bool
	// Issues carries the plan problems for CodePlanInvalid.
	Issues []planast.Issue
	// ApprovalID names the stored run for CodeNeedsApproval.
	ApprovalID string
	Err        error
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Msg
	// the issues' hints, for a text reader, unless the message holds
	// them; beside the message they fix, the general hint last (after
	// it they read as detached from the error)
	for _, is := range e.Issues {
		if is.Hint != "" && !strings.Contains(s, is.Hint) && !strings.Contains(e.Hint, is.Hint) {
			if len(e.Issues) == 1 && strings.Contains(s, is.Path) {
				// the message names the one issue's path already
				s += "; " + is.Hint
			} else {
				s += "; " + is.Path + ": " + is.Hint
			}
		}
	}
	if e.Hint != "" {
		s += " (hint: " + e.Hint + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, hint string, format string, args ...any) *Error {
	return &Error{Code: code, Hint: hint, Msg: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error, wrapping unknown errors as CodeInternal.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Msg: err.Error(), Err: err}
}

// ErrorBody is an error as a caller's program reads it: the CLI's --json
// failure ({"error": ErrorBody}) and the structured content of an MCP tool
// error result carry exactly this.
type ErrorBody struct {
	Code      Code            `json:"code"`
	Message   string          `json:"message"`
	Hint      string          `json:"hint,omitempty"`
	Retryable bool            `json:"retryable"`
	Issues    []planast.Issue `json:"issues,omitempty"`
	// ApprovalID names the stopped run of a NEEDS_APPROVAL error.
	ApprovalID string `json:"approval_id,omitempty"`
}

// Body is e as an ErrorBody.
func (e *Error) Body() ErrorBody {
	return ErrorBody{Code: e.Code, Message: e.Msg, Hint: e.Hint, Retryable: e.Retryable, Issues: e.Issues, ApprovalID: e.ApprovalID}
}

// RefusedByRule reports whether err is a rule's refusal or an approval
// stop: those end the request (fail closed), they never fall back to
// another path.
func RefusedByRule(err error) bool {
	c := AsError(err).Code
	return c == CodeRefusedByRule || c == CodeNeedsApproval
}
