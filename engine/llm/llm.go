// Package llm holds the model-provider side of the engine: the request and
// response shapes of one structured call, key normalisation, and the
// providers: Replay (recorded answers), OpenAI (OpenAI-compatible chat
// completions), Ollama, and Recorder, which records any provider's answers
// for replay. Live providers share one RetryPolicy and report failures as
// *ProviderError and unusable answers as *InvalidOutputError.
package llm

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
)

// Message is one chat message. Role is "system" or "user".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one structured call: messages in, a JSON value conforming to
// Schema out.
type Request struct {
	// Step names the pipeline step ("plan", "plan_repair", "answer", ...).
	Step string
	// Datasource is the datasource id the call is about ("" for none).
	Datasource string
	// Intent is the question or sub-query intent the call answers, as asked;
	// replay keys on its normalised form (see Normalize).
	Intent string
	// Sample is the sample or attempt index (0 for the first call).
	Sample int
	// Messages is the prompt: a stable system message, then the per-call part.
	Messages []Message
	// SchemaName and Schema give the JSON Schema the answer must satisfy.
	SchemaName string
	Schema     json.RawMessage
	// PromptHash is sha256 of the prompt with per-run parts (the date) masked;
	// replay stores it beside each answer to notice prompt changes.
	PromptHash string
	// Temperature, when set, overrides the provider's configured
	// temperature for this call (test-time scaling samples at several).
	Temperature *float64
	// MaxOutputTokens, when > 0, caps this call's answer in tokens, below
	// the provider's configured cap if that is lower (see EffectiveMaxOutput).
	MaxOutputTokens int
	// BeforeRetry, when set, is called before each retry of the call
	// (attempt 1, 2, …; never before the first send); an error stops the
	// retries and is returned as the call's error. Test-time scaling
	// reserves each retry's tokens in its budget here, since a retry
	// re-sends the whole input.
	BeforeRetry func(attempt int) error
}

// beforeRetry runs BeforeRetry for attempts after the first.
func (r Request) beforeRetry(attempt int) error {
	if attempt == 0 || r.BeforeRetry == nil {
		return nil
	}
	return r.BeforeRetry(attempt)
}

// EffectiveMaxOutput is the output cap a call is sent with: the smaller
// positive one of the request's and the provider's (0 for none).
func EffectiveMaxOutput(req, configured int) int {
	if req > 0 && (configured <= 0 || req < configured) {
		return req
	}
	return configured
}

// Usage counts tokens. It never holds latency (see the result's timings),
// so replayed results stay byte-identical.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Response is a provider's answer: the JSON value, usage, and who answered.
type Response struct {
	Content  json.RawMessage
	Usage    Usage
	Provider string
	Model    string
}

// InvalidOutputError is returned by a provider whose model answered with
// text that is not JSON or does not satisfy the request's schema. The engine
// treats it as a repairable planning error: the reason goes back to the model
// on the next attempt.
type InvalidOutputError struct {
	Content string // the model's raw answer, truncated to 2 KiB
	Reason  string
}

func (e *InvalidOutputError) Error() string { return "the model's answer is invalid: " + e.Reason }

// Provider answers structured calls. Implementations: *Replay, *OpenAI,
// *Ollama, *Recorder.
type Provider interface {
	Complete(ctx context.Context, req Request) (*Response, error)
}

var (
	spaceRe    = regexp.MustCompile(`\s+`)
	trailingRe = regexp.MustCompile(`[.?!,;:\s]+$`)
)

// Normalize is the key form of a question or intent: case-folded, runs of
// white space collapsed to one space, trimmed, trailing .?!,;: removed.
func Normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = spaceRe.ReplaceAllString(s, " ")
	return trailingRe.ReplaceAllString(s, "")
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// Slug turns a normalised intent into a file-name part.
func Slug(s string) string {
	s = strings.Trim(slugRe.ReplaceAllString(Normalize(s), "-"), "-")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	return s
}
