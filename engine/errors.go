package engine

import "github.com/nl2sql/nl2sql/engine/internal/fault"

// Code classifies an error at the product's boundary (CLI exit messages, MCP
// tool errors). Codes are stable strings clients may switch on. The type
// lives in engine/internal/fault so that the step packages (engine/scale)
// build the same errors; this is its public name.
type Code = fault.Code

// Error codes.
const (
	CodeInvalidRequest     = fault.CodeInvalidRequest     // bad arguments: empty question, unknown datasource
	CodeDatasourceNotFound = fault.CodeDatasourceNotFound // no such datasource (or one the caller may not see)
	CodeDatasourceDown     = fault.CodeDatasourceDown     // missing, locked or corrupt database
	CodePlanInvalid        = fault.CodePlanInvalid        // the plan failed validation after every repair attempt
	CodeNoRecording        = fault.CodeNoRecording        // replay has no recorded answer for this request
	CodeNoPlanner          = fault.CodeNoPlanner          // no model is configured: the host plans (engine/hostplan)
	CodeInvalidDatabase    = fault.CodeInvalidDatabase    // a --db argument names no usable database
	CodeProvider           = fault.CodeProvider           // the model provider failed
	CodeReadOnly           = fault.CodeReadOnly           // the database refused a statement as not read-only
	CodeAccessDenied       = fault.CodeAccessDenied       // the caller may not read what the request needs
	CodeVerifiedNotFound   = fault.CodeVerifiedNotFound   // no such verified query (or one the caller may not run)
	CodeInvalidParams      = fault.CodeInvalidParams      // a verified query's parameter failed its check
	CodeTimeout            = fault.CodeTimeout            // the query or the model call ran past its limit
	CodeCancelled          = fault.CodeCancelled          // the caller cancelled
	CodeQueryFailed        = fault.CodeQueryFailed        // the database rejected the rendered query
	CodeOverflow           = fault.CodeOverflow           // a computed number beyond its type's range, on every engine
	CodeInternal           = fault.CodeInternal           // a bug: please report it
)

// Error is the one error type at the product's boundary. Msg is safe to
// show to the caller; Hint says what to do next; Retryable says whether the
// same request may succeed later. Err keeps the cause for errors.Is/As.
type Error = fault.Error

// ErrorBody is an error as a caller's program reads it: the CLI's --json
// failure ({"error": ErrorBody}) and the structured content of an MCP tool
// error result carry exactly this.
type ErrorBody = fault.ErrorBody

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, hint string, format string, args ...any) *Error {
	return fault.Errorf(code, hint, format, args...)
}

// AsError returns err as an *Error, wrapping unknown errors as CodeInternal.
func AsError(err error) *Error { return fault.AsError(err) }
