package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func ptr[T any](v T) *T { return &v }

// jsonEqual compares two JSON documents by value.
func jsonEqual(t *testing.T, got any, want json.RawMessage) bool {
	t.Helper()
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(got, w)
}

// The OpenAI request carries the model, the messages, the schema as a
// strict json_schema response format, and the optional settings only when
// set: no temperature when it is null.
func TestOpenAIRequestBody(t *testing.T) {
	tests := []struct {
		name  string
		o     Options
		wantT any // nil: absent
		wantS any
		wantM any
	}{
		{"defaults omit every option", Options{}, nil, nil, nil},
		{"temperature zero is sent", Options{Temperature: ptr(0.0)}, 0.0, nil, nil},
		{"all set", Options{Temperature: ptr(0.7), Seed: ptr(42), MaxOutputTokens: 2048}, 0.7, 42.0, 2048.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, openAIOK(`{"ok": true}`))
			tt.o.APIKey, tt.o.Model = testKey, "gpt-test"
			p := newProvider(t, kOpenAI, f, tt.o)
			resp, err := p.Complete(context.Background(), testRequest())
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Content) != `{"ok": true}` || resp.Usage != (Usage{19, 10}) || resp.Provider != "openai" || resp.Model != "gpt-test-2025" {
				t.Errorf("response %+v", resp)
			}
			r := f.requests()[0]
			if r.Path != "/v1/chat/completions" || r.Auth != "Bearer "+testKey {
				t.Errorf("path %q auth %q", r.Path, r.Auth)
			}
			b := r.Body
			if b["model"] != "gpt-test" {
				t.Errorf("model %v", b["model"])
			}
			msgs, _ := b["messages"].([]any)
			if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[1].(map[string]any)["content"] != `Reply {"ok": true}.` {
				t.Errorf("messages %v", b["messages"])
			}
			rf, _ := b["response_format"].(map[string]any)
			js, _ := rf["json_schema"].(map[string]any)
			if rf["type"] != "json_schema" || js["name"] != "doctor" || js["strict"] != true || !jsonEqual(t, js["schema"], okSchema) {
				t.Errorf("response_format %v", rf)
			}
			for key, want := range map[string]any{"temperature": tt.wantT, "seed": tt.wantS, "max_completion_tokens": tt.wantM} {
				got, present := b[key]
				if want == nil && present {
					t.Errorf("%s sent as %v; want it omitted", key, got)
				}
				if want != nil && got != want {
					t.Errorf("%s = %v, want %v", key, got, want)
				}
			}
			for _, k := range []string{"max_tokens", "stream", "n"} {
				if _, ok := b[k]; ok {
					t.Errorf("unexpected field %s", k)
				}
			}
		})
	}
}

// The Ollama request carries the model, stream false, the schema as
// "format", and options only when set.
func TestOllamaRequestBody(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want map[string]any
	}{
		{"defaults omit every option", Options{}, map[string]any{}},
		{"all set", Options{Temperature: ptr(0.0), Seed: ptr(7), NumCtx: 8192, MaxOutputTokens: 512},
			map[string]any{"temperature": 0.0, "seed": 7.0, "num_ctx": 8192.0, "num_predict": 512.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, ollamaOK(`{"ok":true}`))
			tt.o.Model = "qwen2.5-coder:7b"
			p := newProvider(t, kOllama, f, tt.o)
			resp, err := p.Complete(context.Background(), testRequest())
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Content) != `{"ok":true}` || resp.Usage != (Usage{26, 282}) || resp.Provider != "ollama" {
				t.Errorf("response %+v", resp)
			}
			r := f.requests()[0]
			b := r.Body
			if r.Path != "/api/chat" || b["model"] != "qwen2.5-coder:7b" || b["stream"] != false || !jsonEqual(t, b["format"], okSchema) {
				t.Errorf("request %s %v", r.Path, b)
			}
			if msgs, _ := b["messages"].([]any); len(msgs) != 2 {
				t.Errorf("messages %v", b["messages"])
			}
			if opts, _ := b["options"].(map[string]any); !reflect.DeepEqual(opts, tt.want) {
				t.Errorf("options %v, want %v", b["options"], tt.want)
			}
			if r.Auth != "" {
				t.Errorf("authorization %q sent without a key", r.Auth)
			}
		})
	}
}

// Two 429s with Retry-After, then a 200: the call succeeds after waiting
// what the server asked (seconds for OpenAI, an HTTP date for Ollama).
func TestRetryAfterThenSuccess(t *testing.T) {
	for _, k := range []kind{kOpenAI, kOllama} {
		t.Run(string(k), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
				if n < 2 {
					if k == kOpenAI {
						w.Header().Set("Retry-After", "1")
					} else {
						w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
					}
					writeJSON(w, 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
					return
				}
				okReply(k, `{"ok":true}`)(n, w, r, body)
			})
			p := newProvider(t, k, f, Options{Retry: RetryPolicy{MaxRetries: 4, MaxElapsed: 10 * time.Second}})
			start := time.Now()
			resp, err := p.Complete(context.Background(), testRequest())
			el := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Content) != `{"ok":true}` || len(f.requests()) != 3 {
				t.Errorf("content %s after %d requests", resp.Content, len(f.requests()))
			}
			if el < 1900*time.Millisecond && k == kOpenAI || el < 900*time.Millisecond || el > 6*time.Second {
				t.Errorf("took %s; want about 2 s of Retry-After waits", el)
			}
			t.Logf("%s: 2×429 then 200 in %.2f s", k, el.Seconds())
		})
	}
}

// A server that answers 500 forever fails with a clear, retryable
// PROVIDER_UNAVAILABLE within the bound: the time budget (many retries,
// 1 s) or the count (2 retries) whichever comes first.
func TestServerErrorForever(t *testing.T) {
	tests := []struct {
		name      string
		policy    RetryPolicy
		wantCalls int // 0: any
		maxTime   time.Duration
	}{
		{"time bound", fastRetry(50, time.Second), 0, 2 * time.Second},
		{"count bound", fastRetry(2, time.Minute), 3, time.Second},
		{"no retries", RetryPolicy{}, 1, time.Second},
	}
	for _, k := range []kind{kOpenAI, kOllama} {
		for _, tt := range tests {
			t.Run(string(k)+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				f := newFake(t, func(n int, w http.ResponseWriter, r *http.Request, _ map[string]any) {
					writeJSON(w, 500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)
				})
				p := newProvider(t, k, f, Options{Retry: tt.policy})
				start := time.Now()
				_, err := p.Complete(context.Background(), testRequest())
				el := time.Since(start)
				var pe *ProviderError
				if !errors.As(err, &pe) || pe.Code != CodeUnavailable || !pe.Retryable || pe.Status != 500 {
					t.Fatalf("err = %#v", err)
				}
				calls := len(f.requests())
				if tt.wantCalls > 0 && calls != tt.wantCalls {
					t.Errorf("%d calls, want %d", calls, tt.wantCalls)
				}
				if el > tt.maxTime {
					t.Errorf("took %s, bound %s", el, tt.maxTime)
				}
				msg := err.Error()
				for _, want := range []string{string(k), "500 Internal Server Error", "server had an error", "hint:"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q lacks %q", msg, want)
					}
				}
				if calls > 1 && !strings.Contains(msg, "calls in") {
					t.Errorf("error %q does not say how many calls were made", msg)
				}
				t.Logf("%s: %d calls in %.2f s: %v", tt.name, calls, el.Seconds(), err)
			})
		}
	}
}

// A slow server hits the per-call timeout: PROVIDER_TIMEOUT, retried within
// the bound, and errors.Is(err, context.DeadlineExceeded).
func TestPerCallTimeout(t *testing.T) {
	for _, k := range []kind{kOpenAI, kOllama} {
		t.Run(string(k), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			})
			p := newProvider(t, k, f, Options{Timeout: 200 * time.Millisecond, Retry: fastRetry(1, 5*time.Second)})
			start := time.Now()
			_, err := p.Complete(context.Background(), testRequest())
			el := time.Since(start)
			var pe *ProviderError
			if !errors.As(err, &pe) || pe.Code != CodeTimeout || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v", err)
			}
			if n := len(f.requests()); n != 2 || el > 1500*time.Millisecond {
				t.Errorf("%d calls in %s; want 2 within 1.5 s", n, el)
			}
			if !strings.Contains(err.Error(), "did not answer within 0.2 s") || !strings.Contains(err.Error(), "timeout_seconds in llm.default") {
				t.Errorf("error %q", err)
			}
		})
	}
}

// The caller's cancellation is not retried and comes back as itself.
func TestCallerCancel(t *testing.T) {
	f := newFake(t, func(n int, w http.ResponseWriter, r *http.Request, _ map[string]any) { <-r.Context().Done() })
	p := newProvider(t, kOpenAI, f, Options{Retry: fastRetry(5, 5*time.Second)})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	_, err := p.Complete(ctx, testRequest())
	if !errors.Is(err, context.DeadlineExceeded) || len(f.requests()) != 1 {
		t.Fatalf("err = %v after %d calls", err, len(f.requests()))
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		t.Errorf("caller deadline reported as %v", pe)
	}
}

// The provider's settings come from the config only: an OPENAI_API_KEY in
// the environment is not sent when the entry has no api_key.
func TestOpenAIIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment-0000")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	f := newFake(t, openAIOK(`{"ok":true}`))
	p := newProvider(t, kOpenAI, f, Options{})
	if _, err := p.Complete(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	if auth := f.requests()[0].Auth; auth != "" {
		t.Errorf("Authorization %q sent without a configured key", auth)
	}
}
