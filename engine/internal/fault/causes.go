package fault

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
)

// Deadline turns an error caused by the request's own deadline into TIMEOUT.
func Deadline(ctx context.Context, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		e := AsError(err)
		if e.Code != CodeTimeout {
			return &Error{Code: CodeTimeout, Msg: "the request ran past its time limit", Hint: "ask a narrower question or raise the timeout", Retryable: true, Err: err}
		}
	}
	return err
}

// Provider maps a model call's error onto the boundary error type.
func Provider(err error) *Error {
	var ee *Error
	if errors.As(err, &ee) { // already typed (NO_PLANNER)
		return ee
	}
	var nr *llm.NoRecordingError
	if errors.As(err, &nr) {
		hint := "this server replays recorded model answers; ask a recorded question, or configure a live model provider (llm.default in nl2sql.yaml) to ask new ones"
		return &Error{Code: CodeNoRecording, Msg: nr.Error(), Hint: hint, Err: err}
	}
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		return &Error{Code: Code(pe.Code), Msg: pe.Msg, Hint: pe.Hint, Retryable: pe.Retryable, Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Msg: "the request was cancelled", Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Msg: "the model call ran past the request's time limit", Retryable: true, Err: err,
			Hint: "check that the model endpoint answers (nl2sql doctor), use a faster model, or ask again"}
	}
	return &Error{Code: CodeProvider, Msg: "the model provider failed: " + err.Error(), Retryable: true, Err: err}
}

// secretRe matches things that look like credentials, in case a question
// or an error message carries one: bearer tokens and sk-… style keys.
var secretRe = regexp.MustCompile(`(?i)(bearer\s+[a-z0-9._~+/=-]{8,}|\bsk-[a-z0-9_-]{8,}|api[_-]?key["'=:\s]+[a-z0-9._-]{8,})`)

// Redact masks what looks like a credential in text bound for a trace,
// a report or a log.
func Redact(s string) string { return secretRe.ReplaceAllString(s, "[REDACTED]") }

// Source maps an adapter error onto the boundary error type.
func Source(err error, id string) *Error {
	var se *source.Error
	if errors.As(err, &se) {
		code := CodeQueryFailed
		retry := false
		switch se.Code {
		case "READ_ONLY_VIOLATION":
			code = CodeReadOnly
		case "TIMEOUT":
			// a slow query times out again; only a wait (a lock, a busy pool) may pass
			code, retry = CodeTimeout, se.Waited
		case "CANCELLED":
			code = CodeCancelled
		case source.CodeOverflow:
			code = CodeOverflow
		case "DATASOURCE_UNAVAILABLE":
			// a lock passes and a server that went away may come back; a
			// corrupt file, a refused login or a missing file will not
			code, retry = CodeDatasourceDown, se.Transient
		case "QUERY_FAILED":
			// its hint says to send the request again, which the engine
			// makes true by reading the schema again before returning it
			retry = se.SchemaChanged
		}
		return &Error{Code: code, Msg: fmt.Sprintf("datasource %q: %s", id, se.Msg), Hint: se.Hint, Retryable: retry, Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Msg: "the request was cancelled", Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Msg: fmt.Sprintf("datasource %q: the query ran past its time limit", id), Err: err, Hint: source.TimeoutHint}
	}
	return &Error{Code: CodeQueryFailed, Msg: fmt.Sprintf("datasource %q: %v", id, err), Err: err}
}
