package planast

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Code classifies a plan problem. Codes are stable strings: the planner sees
// them on a retry and clients may switch on them.
type Code string

// Plan problem codes.
const (
	CodeTooLarge       Code = "PLAN_TOO_LARGE"        // document, node count or depth over the limits
	CodeMalformed      Code = "PLAN_MALFORMED"        // not JSON, wrong JSON type, missing required field
	CodeUnknownField   Code = "UNKNOWN_FIELD"         // a field the plan language does not have
	CodeBadValue       Code = "INVALID_VALUE"         // an enum or literal value out of range
	CodeTableNotFound  Code = "TABLE_NOT_FOUND"       // no such table (or one the caller may not see)
	CodeColumnNotFound Code = "COLUMN_NOT_FOUND"      // no such column on the source
	CodeAmbiguous      Code = "AMBIGUOUS_COLUMN"      // an unqualified name several sources have
	CodeAmbiguousTable Code = "AMBIGUOUS_TABLE"       // a table name several schemas have, none the default one
	CodeAliasNotFound  Code = "ALIAS_NOT_FOUND"       // a reference to an alias not in scope
	CodeDuplicateAlias Code = "DUPLICATE_ALIAS"       // two sources or CTEs with one alias
	CodeNotJoined      Code = "TABLE_NOT_JOINED"      // a declared source no join connects
	CodeBadJoin        Code = "INVALID_JOIN"          // a join that names the wrong aliases or no keys
	CodeFunction       Code = "FUNCTION_NOT_ALLOWED"  // a function not on the allow-list
	CodeArity          Code = "WRONG_ARGUMENTS"       // wrong number or kind of arguments
	CodeType           Code = "TYPE_MISMATCH"         // e.g. a number compared with a date
	CodeGrouping       Code = "GROUPING_ERROR"        // aggregate / GROUP BY inconsistency
	CodeOrder          Code = "INVALID_ORDER"         // OFFSET without ORDER BY, bad ORDER BY reference
	CodeLimit          Code = "INVALID_LIMIT"         // negative LIMIT or OFFSET
	CodeSetOp          Code = "INVALID_SET_OPERATION" // column count mismatch, misplaced clauses
	CodeAccessDenied   Code = "ACCESS_DENIED"         // the caller's policy refuses a column
	CodeEmptySelect    Code = "EMPTY_SELECT"          // a query that selects nothing
)

// Issue is one problem found in a plan. Path locates it in the plan's JSON
// ("select[1].expr.args[0]"); Message is written for the model that has to fix
// it and names nothing the caller may not see.
//
// Hint, when set, says what the planner may write instead (the functions
// allowed at that position, say); like Message it names only what the
// caller may see.
type Issue struct {
	Code    Code   `json:"code"`
	Path    string `json:"path"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Headline is the issue's code and where it is: "UNKNOWN_COLUMN at
// where.left", or the code alone for an issue of the whole plan (an empty
// path, which "at :" showed as a place).
func (is Issue) Headline() string {
	if is.Path == "" {
		return string(is.Code)
	}
	return string(is.Code) + " at " + is.Path
}

// Error is the error returned by Decode and Validate: one or more Issues,
// sorted by the order they were found (a depth-first walk of the plan).
type Error struct {
	Issues []Issue
}

func (e *Error) Error() string { return e.text(true) }

// Brief is Error without the hints, for a message sent beside the issues
// themselves: a hint listing the allowed functions is long, and a refusal
// that repeats it per copy costs the host its context for nothing. It
// leaves out "invalid plan: " too: the message it goes into has the code
// PLAN_INVALID ("PLAN_INVALID: invalid plan: ..." said it twice).
func (e *Error) Brief() string { return strings.TrimPrefix(e.text(false), invalidLead) }

// invalidLead starts Error's text.
const invalidLead = "invalid plan: "

func (e *Error) text(hints bool) string {
	parts := make([]string, 0, len(e.Issues))
	for _, is := range e.Issues {
		part := is.Headline() + ": " + is.Message
		if hints && is.Hint != "" {
			part += " (" + is.Hint + ")"
		}
		parts = append(parts, part)
	}
	return invalidLead + strings.Join(parts, "; ")
}

// FirstCode returns the code of the first issue, or "" for an empty error.
func (e *Error) FirstCode() Code {
	if len(e.Issues) == 0 {
		return ""
	}
	return e.Issues[0].Code
}

// NewError is an *Error of one issue.
func NewError(code Code, path, format string, args ...any) *Error {
	return &Error{Issues: []Issue{{Code: code, Path: path, Message: fmt.Sprintf(format, args...)}}}
}

// Truncate shortens s to n bytes, marking the cut with an ellipsis, so that
// an issue quotes what a plan wrote without echoing a huge value.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // never half a character
	}
	return s[:n] + "…"
}
