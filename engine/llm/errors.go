package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Provider error codes: stable strings a client may switch on.
const (
	CodeUnavailable = "PROVIDER_UNAVAILABLE"  // connection refused, 5xx, a server that cannot answer now
	CodeRateLimited = "PROVIDER_RATE_LIMITED" // 429: too many requests or tokens
	CodeRejected    = "PROVIDER_REJECTED"     // 4xx: a parameter, model or request the server refuses; a refusal
	CodeAuth        = "PROVIDER_AUTH"         // 401/403: missing or wrong API key
	CodeTimeout     = "PROVIDER_TIMEOUT"      // the per-call timeout, 408 or 504
)

// ProviderError is a model call that failed for a reason other than the
// model's answer (that is *InvalidOutputError). Msg and Hint are safe to
// show: they never hold the API key (see redact). Retryable says whether the
// same call may succeed later; the retry policy retries exactly those.
type ProviderError struct {
	Code      string // one of the Code* constants
	Msg       string
	Hint      string
	Retryable bool
	// Status is the HTTP status the server answered (0: no answer).
	Status int
	// Param is the request parameter a 400 named ("temperature"), if any.
	Param string
	// RetryAfter is the wait the server asked for (Retry-After), 0 if none.
	RetryAfter time.Duration
	// Attempts counts the calls made, retries included (set by the retry
	// policy when it gives up after more than one).
	Attempts int
	// Err is the cause with its text already made safe; errors.Is(err,
	// context.DeadlineExceeded) holds for timeouts.
	Err error
}

func (e *ProviderError) Error() string {
	s := e.Msg
	if e.Hint != "" {
		s += " (hint: " + e.Hint + ")"
	}
	return s
}

func (e *ProviderError) Unwrap() error { return e.Err }

// safeError is a cause whose text was redacted; it unwraps only to a
// context error, never to the SDK's error (which may hold the key).
type safeError struct {
	msg  string
	kind error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.kind }

// keyLike matches strings shaped like provider API keys (sk-…, sk-proj-…,
// Bearer tokens) so that a key echoed by a server never reaches a message.
var keyLike = regexp.MustCompile(`(?i)(sk-[a-z0-9_\-*.]{6,}|bearer\s+[a-z0-9_\-.=]{8,})`)

// redact removes key (and anything that looks like an API key) from s.
func redact(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	return keyLike.ReplaceAllString(s, "[redacted]")
}

// serverMessage pulls the error message and parameter out of an error body:
// OpenAI's {"error": {"message", "param", "code", "type"}} or Ollama's
// {"error": "..."}; otherwise the body's text, cut to 300 bytes.
func serverMessage(body []byte) (msg, param string) {
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &env) == nil && len(env.Error) > 0 {
		var s string
		if json.Unmarshal(env.Error, &s) == nil {
			return cut(s, 300), ""
		}
		var o struct {
			Message string `json:"message"`
			Param   string `json:"param"`
			Code    any    `json:"code"`
		}
		if json.Unmarshal(env.Error, &o) == nil && o.Message != "" {
			return cut(o.Message, 300), o.Param
		}
	}
	return cut(strings.TrimSpace(string(body)), 300), ""
}

// cut shortens s to n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// knownParams are request parameters a server may refuse, with what to do.
var knownParams = []struct{ name, hint string }{
	{"temperature", "this model accepts only its default temperature: set temperature: null in %s"},
	{"seed", "the server does not accept a seed: remove seed from %s"},
	{"max_completion_tokens", "the server does not accept max_completion_tokens: remove max_output_tokens from %s"},
	{"num_predict", "the server does not accept num_predict: remove max_output_tokens from %s"},
	{"num_ctx", "the server does not accept num_ctx: remove num_ctx from %s"},
	{"response_format", "the model or server does not support structured outputs (a JSON Schema response format): choose a model that does in %s"},
	{"json_schema", "the model or server does not support structured outputs (a JSON Schema response format): choose a model that does in %s"},
	{"format", "the model or server does not support structured outputs (a JSON Schema format): choose a model that does in %s"},
}

// paramHint names the parameter a rejection is about (the server's own
// "param", else the first known parameter the message names) and a hint.
func paramHint(param, msg, label string) (string, string) {
	low := strings.ToLower(msg)
	for _, k := range knownParams {
		if param == k.name || (param == "" && strings.Contains(low, k.name)) {
			return k.name, fmt.Sprintf(k.hint, label)
		}
	}
	return param, ""
}

// classify turns a failed exchange into an error. parent is the caller's
// context, attempt the per-call one; ex holds what the server answered.
// A caller's cancellation or deadline comes back as the context's error,
// an answer that cannot be parsed as *InvalidOutputError, and everything
// else as *ProviderError.
func (c *callSite) classify(parent, attempt context.Context, ex *exchange, err error) error {
	if perr := parent.Err(); perr != nil {
		return perr
	}
	host := c.host
	if attempt.Err() != nil && errors.Is(attempt.Err(), context.DeadlineExceeded) {
		return &ProviderError{Code: CodeTimeout, Retryable: true,
			Msg:  fmt.Sprintf("%s at %s did not answer within %s", c.name, host, seconds(c.timeout)),
			Hint: fmt.Sprintf("raise timeout_seconds in %s, or use a smaller or faster model", c.label),
			Err:  &safeError{msg: "per-call timeout", kind: context.DeadlineExceeded}}
	}
	status := ex.status()
	if status == 0 {
		return &ProviderError{Code: CodeUnavailable, Retryable: true,
			Msg:  fmt.Sprintf("cannot reach %s at %s: %s", c.name, host, redact(netReason(err), c.key)),
			Hint: c.downHint,
			Err:  &safeError{msg: redact(err.Error(), c.key)}}
	}
	if status < 400 {
		// The server answered 2xx but the body did not parse: a cut or
		// garbled answer, which goes back to the model like any other.
		body := ex.bodyText()
		return &InvalidOutputError{Content: cut(redact(body, c.key), 2048),
			Reason: fmt.Sprintf("the server's response is not complete JSON (%d bytes, cut off or garbled); answer again with one JSON object", len(body))}
	}
	msg, param := serverMessage(ex.bodyBytes())
	msg, param = redact(msg, c.key), redact(param, c.key)
	pe := &ProviderError{Status: status, Param: param, RetryAfter: ex.retryAfter(time.Now()),
		Err: &safeError{msg: fmt.Sprintf("HTTP %d", status)}}
	what := fmt.Sprintf("%s at %s answered %d %s", c.name, host, status, http.StatusText(status))
	if msg != "" {
		what += ": " + msg
	}
	pe.Msg = what
	switch {
	case status == http.StatusTooManyRequests:
		pe.Code, pe.Retryable = CodeRateLimited, true
		pe.Hint = "the server is rate limiting this key or model; wait, lower the request rate, or raise the plan's limits"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		pe.Code = CodeAuth
		pe.Hint = fmt.Sprintf("check api_key in %s (set it with ${env:VAR}, never in the file)", c.label)
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		pe.Code, pe.Retryable = CodeTimeout, true
	case status >= 500 || status == http.StatusConflict:
		pe.Code, pe.Retryable = CodeUnavailable, true
		pe.Hint = c.downHint
	case status == http.StatusNotFound:
		pe.Code = CodeRejected
		pe.Hint = c.notFoundHint
	default:
		pe.Code = CodeRejected
		pe.Param, pe.Hint = paramHint(param, msg, c.label)
	}
	return pe
}

// netReason is the short form of a transport error ("connection refused").
func netReason(err error) string {
	s := err.Error()
	for _, k := range []string{"connection refused", "no such host", "connection reset by peer", "EOF", "i/o timeout", "network is unreachable"} {
		if strings.Contains(s, k) {
			return k
		}
	}
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// seconds prints a duration in seconds with one decimal ("2.5 s").
func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
