package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// The fakes speak each provider's documented wire protocol: they decode the
// real request body and answer with the documented response bodies.

const testKey = "sk-test-NL2SQL-SECRET-0123456789abcdef"

// okSchema is the doctor's tiny strict schema.
var okSchema = json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)

// seen is one request a fake received.
type seen struct {
	Path   string
	Auth   string
	Body   map[string]any
	Header http.Header
}

// fake is an httptest server whose answer to the n-th request (0-based) is
// given by reply.
type fake struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []seen
	reply func(n int, w http.ResponseWriter, r *http.Request, body map[string]any)
}

func newFake(t *testing.T, reply func(n int, w http.ResponseWriter, r *http.Request, body map[string]any)) *fake {
	t.Helper()
	f := &fake{reply: reply}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, 400)
			return
		}
		f.mu.Lock()
		n := len(f.reqs)
		f.reqs = append(f.reqs, seen{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body, Header: r.Header.Clone()})
		f.mu.Unlock()
		f.reply(n, w, r, body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fake) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// openAIBody is a documented Chat Completions response (OpenAI API
// reference, "The chat completion object").
func openAIBody(content, finish string, refusal any) string {
	c, _ := json.Marshal(content)
	r, _ := json.Marshal(refusal)
	return fmt.Sprintf(`{"id":"chatcmpl-123","object":"chat.completion","created":1741569952,"model":"gpt-test-2025",
"choices":[{"index":0,"message":{"role":"assistant","content":%s,"refusal":%s,"annotations":[]},"logprobs":null,"finish_reason":%q}],
"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}},
"service_tier":"default","system_fingerprint":"fp_test"}`, c, r, finish)
}

// ollamaBody is a documented non-streaming /api/chat response (Ollama API
// documentation, "Chat request (No streaming)").
func ollamaBody(content, doneReason string) string {
	c, _ := json.Marshal(content)
	return fmt.Sprintf(`{"model":"qwen2.5-coder:7b","created_at":"2025-01-15T10:00:00.000000Z","message":{"role":"assistant","content":%s},"done_reason":%q,"done":true,"total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,"prompt_eval_duration":342546000,"eval_count":282,"eval_duration":4535599000}`+"\n", c, doneReason)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// openAIOK answers every request with content.
func openAIOK(content string) func(int, http.ResponseWriter, *http.Request, map[string]any) {
	return func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 200, openAIBody(content, "stop", nil))
	}
}

func ollamaOK(content string) func(int, http.ResponseWriter, *http.Request, map[string]any) {
	return func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 200, ollamaBody(content, "stop"))
	}
}

// kind names a provider for table tests.
type kind string

const (
	kOpenAI kind = "openai"
	kOllama kind = "ollama"
)

// newProvider builds the provider of kind k against f with o's settings.
func newProvider(t *testing.T, k kind, f *fake, o Options) Provider {
	t.Helper()
	if o.Model == "" {
		o.Model = "test-model"
	}
	if o.Label == "" {
		o.Label = "llm.default"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var p Provider
	var err error
	switch k {
	case kOpenAI:
		o.BaseURL = f.URL + "/v1"
		p, err = NewOpenAI(o)
	case kOllama:
		o.BaseURL = f.URL
		p, err = NewOllama(o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// okReply answers request n with a valid answer in k's format.
func okReply(k kind, content string) func(int, http.ResponseWriter, *http.Request, map[string]any) {
	if k == kOpenAI {
		return openAIOK(content)
	}
	return ollamaOK(content)
}

func testRequest() Request {
	return Request{Step: "doctor", Intent: "ping", SchemaName: "doctor", Schema: okSchema,
		Messages: []Message{{Role: "system", Content: "Answer in JSON."}, {Role: "user", Content: `Reply {"ok": true}.`}}}
}

// fastRetry retries often and quickly, for the wire tests.
func fastRetry(retries int, budget time.Duration) RetryPolicy {
	return RetryPolicy{MaxRetries: retries, MaxElapsed: budget, BaseDelay: 20 * time.Millisecond, MaxDelay: 200 * time.Millisecond}
}
