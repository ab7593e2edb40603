package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// doctor tells a user whether real calls to an endpoint work, so it retries
// as they do: a provider that rate-limits the first request (429,
// Retry-After: 0) and then answers is reported ok, with the retry counted,
// not FAILED; an endpoint real calls give up on still fails, after the same
// number of calls.
func TestDoctorRetriesLikeRealCalls(t *testing.T) {
	ok := `{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"ok\":true}","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":4,"total_tokens":34}}`
	tests := []struct {
		name      string
		retries   string // the entry's max_retries, "" for the default
		failFirst int    // calls answered with failStatus before the 200s
		status    int
		wantCalls int32
		wantOK    bool
		want      string // in doctor's llm.default line
	}{
		{"429 once, then 200", "", 1, 429, 2, true, "after 1 retry)"},
		{"503 twice, then 200", "", 2, 503, 3, true, "after 2 retries)"},
		{"429 more often than max_retries", "2", 5, 429, 3, false, "(3 calls in "},
		{"max_retries 0: real calls do not retry either", "0", 1, 429, 1, false, "429"},
		{"401 is not retried", "", 1, 401, 1, false, "401"},
		{"no failure: no retry mentioned", "", 0, 0, 1, true, "tokens)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				n := calls.Add(1)
				w.Header().Set("Content-Type", "application/json")
				if int(n) <= tt.failFirst {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(tt.status)
					io.WriteString(w, `{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`)
					return
				}
				io.WriteString(w, ok)
			}))
			defer srv.Close()
			extra := ""
			if tt.retries != "" {
				extra = ", max_retries: " + tt.retries
			}
			cfg := writeConfig(t, fmt.Sprintf("  default: {provider: openai, base_url: %q, api_key: %q, model: m%s}\n", srv.URL+"/v1", testKey, extra))
			var out strings.Builder
			err := Doctor(context.Background(), cfg, &out)
			line := ""
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(l, "llm.default") {
					line = l
				}
			}
			t.Logf("%s", line)
			if (err == nil) != tt.wantOK {
				t.Fatalf("doctor err = %v, want ok=%v\n%s", err, tt.wantOK, out.String())
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("%d calls, want %d", got, tt.wantCalls)
			}
			if !strings.Contains(line, tt.want) || strings.Contains(line, "FAILED") == tt.wantOK {
				t.Errorf("line %q, want %q", line, tt.want)
			}
			if tt.failFirst == 0 && strings.Contains(line, "retr") {
				t.Errorf("a first-time answer mentions retries: %q", line)
			}
		})
	}
}
