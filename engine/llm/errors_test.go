package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Answers that are not usable JSON come back as *InvalidOutputError (the
// engine repairs); refusals and content filters as PROVIDER_REJECTED.
func TestInvalidOutput(t *testing.T) {
	type reply = func(int, http.ResponseWriter, *http.Request, map[string]any)
	body := func(status int, b string) reply {
		return func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) { writeJSON(w, status, b) }
	}
	full := openAIBody(`{"ok":true}`, "stop", nil)
	fullOllama := ollamaBody(`{"ok":true}`, "stop")
	tests := []struct {
		name   string
		k      kind
		reply  reply
		reason string // substring of InvalidOutputError.Reason; "" for a ProviderError
		code   string
	}{
		{"openai truncated body", kOpenAI, body(200, full[:len(full)/2]), "not complete JSON", ""},
		{"openai content not JSON", kOpenAI, openAIOK(`Sure! Here is the plan: {"ok": true`), "not JSON", ""},
		{"openai content off schema", kOpenAI, openAIOK(`{"ok":"yes"}`), "at /ok:", ""},
		{"openai extra property", kOpenAI, openAIOK(`{"ok":true,"why":"x"}`), "does not match the schema", ""},
		{"openai two values", kOpenAI, openAIOK(`{"ok":true}{"ok":false}`), "more than one JSON value", ""},
		{"openai empty content", kOpenAI, openAIOK(``), "empty", ""},
		{"openai cut at length", kOpenAI, body(200, openAIBody(`{"ok":`, "length", nil)), "cut off", ""},
		{"openai no choices", kOpenAI, body(200, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`), "no choices", ""},
		{"openai refusal", kOpenAI, body(200, openAIBody("", "stop", "I can't help with that.")), "", CodeRejected},
		{"openai content filter", kOpenAI, body(200, openAIBody("", "content_filter", nil)), "", CodeRejected},
		{"ollama truncated body", kOllama, body(200, fullOllama[:len(fullOllama)/2]), "not complete JSON", ""},
		{"ollama content not JSON", kOllama, ollamaOK("I think ok is true"), "not JSON", ""},
		{"ollama content off schema", kOllama, ollamaOK(`{}`), "missing property", ""},
		{"ollama cut at length", kOllama, body(200, ollamaBody(`{"ok":`, "length")), "cut off", ""},
		{"ollama empty body", kOllama, body(200, ""), "empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.reply)
			p := newProvider(t, tt.k, f, Options{Retry: fastRetry(3, 5*time.Second)})
			_, err := p.Complete(context.Background(), testRequest())
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d calls: an answer problem must not be retried by the provider", n)
			}
			if tt.code != "" {
				var pe *ProviderError
				if !errors.As(err, &pe) || pe.Code != tt.code || pe.Retryable {
					t.Fatalf("err = %v, want %s", err, tt.code)
				}
				return
			}
			var bad *InvalidOutputError
			if !errors.As(err, &bad) || !strings.Contains(bad.Reason, tt.reason) {
				t.Fatalf("err = %v, want an InvalidOutputError about %q", err, tt.reason)
			}
			if len(bad.Content) > 2048+3 {
				t.Errorf("content not cut: %d bytes", len(bad.Content))
			}
		})
	}
}

// Each HTTP failure maps to one code, retryable or not, with a hint; a 400
// that names a parameter says which and what to change.
func TestErrorClassification(t *testing.T) {
	tests := []struct {
		name      string
		k         kind
		status    int
		body      string
		code      string
		retryable bool
		param     string
		hint      string
	}{
		{"openai 401", kOpenAI, 401, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`, CodeAuth, false, "", "api_key in llm.default"},
		{"openai 403", kOpenAI, 403, `{"error":{"message":"Project does not have access to model","type":"invalid_request_error"}}`, CodeAuth, false, "", "api_key"},
		{"openai 404 model", kOpenAI, 404, `{"error":{"message":"The model 'nope' does not exist","type":"invalid_request_error","code":"model_not_found"}}`, CodeRejected, false, "", "check model and base_url"},
		{"openai 400 temperature", kOpenAI, 400, `{"error":{"message":"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`,
			CodeRejected, false, "temperature", "set temperature: null in llm.default"},
		{"openai 400 schema", kOpenAI, 400, `{"error":{"message":"Invalid schema for response_format 'plan_answer'","type":"invalid_request_error","param":"response_format"}}`,
			CodeRejected, false, "response_format", "structured outputs"},
		{"openai 400 unnamed seed", kOpenAI, 400, `{"error":{"message":"seed is not supported by this server"}}`, CodeRejected, false, "seed", "remove seed"},
		{"openai 408", kOpenAI, 408, `{"error":{"message":"timeout"}}`, CodeTimeout, true, "", ""},
		{"openai 503 text body", kOpenAI, 503, `upstream connect error`, CodeUnavailable, true, "", "is up"},
		{"openai 429", kOpenAI, 429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}`, CodeRateLimited, true, "", "rate limiting"},
		{"ollama 404 model", kOllama, 404, `{"error":"model \"qwen9:1b\" not found, try pulling it first"}`, CodeRejected, false, "", "ollama pull test-model"},
		{"ollama 400", kOllama, 400, `{"error":"invalid format: expected \"json\" or a valid JSON schema"}`, CodeRejected, false, "format", "structured outputs"},
		{"ollama 500", kOllama, 500, `{"error":"llama runner process has terminated"}`, CodeUnavailable, true, "", "ollama serve"},
		{"ollama 401", kOllama, 401, `{"error":"unauthorized"}`, CodeAuth, false, "", "api_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				writeJSON(w, tt.status, tt.body)
			})
			p := newProvider(t, tt.k, f, Options{})
			_, err := p.Complete(context.Background(), testRequest())
			var pe *ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %#v", err)
			}
			if pe.Code != tt.code || pe.Retryable != tt.retryable || pe.Param != tt.param || pe.Status != tt.status {
				t.Errorf("got code %s retryable %v param %q status %d", pe.Code, pe.Retryable, pe.Param, pe.Status)
			}
			if !strings.Contains(pe.Hint, tt.hint) {
				t.Errorf("hint %q lacks %q", pe.Hint, tt.hint)
			}
			if !strings.Contains(pe.Msg, fmt.Sprint(tt.status)) {
				t.Errorf("message %q lacks the status", pe.Msg)
			}
		})
	}
}

// A server that is not there is PROVIDER_UNAVAILABLE, retried, with a hint.
func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, k := range []kind{kOpenAI, kOllama} {
		t.Run(string(k), func(t *testing.T) {
			o := Options{Model: "m", Label: "llm.plan", Retry: fastRetry(2, 2*time.Second), Logger: slog.New(slog.DiscardHandler)}
			var p Provider
			if k == kOpenAI {
				o.BaseURL = "http://" + addr + "/v1"
				p, err = NewOpenAI(o)
			} else {
				o.BaseURL = "http://" + addr
				p, err = NewOllama(o)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err := p.Complete(context.Background(), testRequest())
			var pe *ProviderError
			if !errors.As(err, &pe) || pe.Code != CodeUnavailable || pe.Attempts != 3 || !strings.Contains(pe.Msg, "connection refused") {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(pe.Hint, "llm.plan") {
				t.Errorf("hint %q", pe.Hint)
			}
		})
	}
}

// The API key never appears in an error, a log line or a recording, even
// when a server echoes it back on every path.
func TestKeyNeverLeaks(t *testing.T) {
	echo := func(status int) func(int, http.ResponseWriter, *http.Request, map[string]any) {
		return func(_ int, w http.ResponseWriter, r *http.Request, _ map[string]any) {
			auth := r.Header.Get("Authorization")
			switch status {
			case 200: // a cut body that holds the key
				writeJSON(w, 200, `{"id":"x","note":"`+auth+`","choices":[{"message":{"content":"`)
			case 429:
				w.Header().Set("Retry-After", "0")
				writeJSON(w, 429, `{"error":{"message":"Rate limited for key `+testKey+`"}}`)
			default:
				writeJSON(w, status, `{"error":{"message":"Incorrect API key provided: `+testKey+` (`+auth+`)","param":"`+testKey+`"}}`)
			}
		}
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	dir := t.TempDir()
	var msgs []string
	for _, k := range []kind{kOpenAI, kOllama} {
		for _, status := range []int{200, 400, 401, 404, 429, 500} {
			f := newFake(t, echo(status))
			p := newProvider(t, k, f, Options{APIKey: testKey, Logger: logger, Retry: fastRetry(1, time.Second)})
			rec, err := NewRecorder(p, dir, "")
			if err != nil {
				t.Fatal(err)
			}
			_, err = rec.Complete(context.Background(), testRequest())
			if err == nil {
				t.Fatalf("%s %d: no error", k, status)
			}
			if r := f.requests()[0]; !strings.Contains(r.Auth, testKey) {
				t.Fatalf("%s: the key was not sent (%q)", k, r.Auth)
			}
			msgs = append(msgs, err.Error(), fmt.Sprintf("%v %+v %#v", err, err, err))
			var bad *InvalidOutputError
			if errors.As(err, &bad) {
				msgs = append(msgs, bad.Content)
			}
		}
		// Timeout and connection errors.
		slow := newFake(t, func(_ int, w http.ResponseWriter, r *http.Request, _ map[string]any) { <-r.Context().Done() })
		p := newProvider(t, k, slow, Options{APIKey: testKey, Logger: logger, Timeout: 50 * time.Millisecond})
		_, err := p.Complete(context.Background(), testRequest())
		msgs = append(msgs, fmt.Sprintf("%v %+v", err, err))
		slow.Close()
		_, err = p.Complete(context.Background(), testRequest())
		msgs = append(msgs, fmt.Sprintf("%v %+v", err, err))
	}
	var files []string
	filepath.Walk(dir, func(path string, _ os.FileInfo, _ error) error {
		if b, err := os.ReadFile(path); err == nil {
			files = append(files, string(b))
		}
		return nil
	})
	if len(files) == 0 {
		t.Error("nothing was recorded (the cut bodies should be)")
	}
	all := strings.Join(msgs, "\n") + logs.String() + strings.Join(files, "\n")
	for _, part := range []string{testKey, testKey[8:], "NL2SQL-SECRET"} {
		if strings.Contains(all, part) {
			t.Errorf("%q leaked:\n%s", part, all)
		}
	}
	if !strings.Contains(all, "[redacted]") {
		t.Error("expected a redaction marker where the server echoed the key")
	}
}
