package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// virtualClock is a Now/Sleep pair that advances time without waiting.
type virtualClock struct {
	t     time.Time
	waits []time.Duration
}

func (c *virtualClock) now() time.Time { return c.t }
func (c *virtualClock) sleep(_ context.Context, d time.Duration) error {
	c.waits = append(c.waits, d)
	c.t = c.t.Add(d)
	return nil
}

// The waits follow BaseDelay·2ⁿ capped at MaxDelay, jittered in [d/2, d),
// Retry-After overrides them, and the count and the time budget both stop
// the loop; a deterministic jitter source makes the sequence exact.
func TestRetryPolicyWaits(t *testing.T) {
	rl := func(after time.Duration) error {
		return &ProviderError{Code: CodeRateLimited, Retryable: true, Status: 429, Msg: "429", RetryAfter: after}
	}
	down := &ProviderError{Code: CodeUnavailable, Retryable: true, Status: 500, Msg: "500"}
	ms := time.Millisecond
	tests := []struct {
		name      string
		policy    RetryPolicy
		errs      []error // the n-th call's error; past the end: success
		wantWaits []time.Duration
		wantErr   string // "" for success
	}{
		{"defaults, jitter 0: half of 0.5, 1, 2, 4 s", RetryPolicy{MaxRetries: 4, Jitter: func() float64 { return 0 }},
			[]error{down, down, down, down, down}, []time.Duration{250 * ms, 500 * ms, 1000 * ms, 2000 * ms}, "5 calls"},
		{"defaults, jitter 0.5", RetryPolicy{MaxRetries: 2, Jitter: func() float64 { return 0.5 }},
			[]error{down, down}, []time.Duration{375 * ms, 750 * ms}, ""},
		{"cap at MaxDelay", RetryPolicy{MaxRetries: 6, BaseDelay: time.Second, MaxDelay: 3 * time.Second, MaxElapsed: time.Hour, Jitter: func() float64 { return 0 }},
			[]error{down, down, down, down}, []time.Duration{500 * ms, 1000 * ms, 1500 * ms, 1500 * ms}, ""},
		{"Retry-After wins", RetryPolicy{MaxRetries: 4, Jitter: func() float64 { return 0 }},
			[]error{rl(3 * time.Second), rl(2 * time.Second)}, []time.Duration{3 * time.Second, 2 * time.Second}, ""},
		{"Retry-After past the budget", RetryPolicy{MaxRetries: 4, MaxElapsed: 10 * time.Second},
			[]error{rl(60 * time.Second)}, nil, "asked to wait 60.0 s"},
		{"time budget stops before the count", RetryPolicy{MaxRetries: 100, MaxElapsed: 5 * time.Second, Jitter: func() float64 { return 0 }},
			[]error{down, down, down, down, down, down, down}, []time.Duration{250 * ms, 500 * ms, 1000 * ms, 2000 * ms}, "5 calls in 3.8 s"},
		{"no retries", RetryPolicy{}, []error{down}, nil, "500"},
		{"not retryable", RetryPolicy{MaxRetries: 3}, []error{&ProviderError{Code: CodeAuth, Msg: "401"}}, nil, "401"},
		{"invalid output is the engine's", RetryPolicy{MaxRetries: 3}, []error{&InvalidOutputError{Reason: "x"}}, nil, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &virtualClock{t: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)}
			p := tt.policy
			p.Now, p.Sleep = clock.now, clock.sleep
			calls := 0
			err := p.Do(context.Background(), func(context.Context) error {
				calls++
				if calls <= len(tt.errs) {
					return tt.errs[calls-1]
				}
				return nil
			})
			if len(clock.waits) != len(tt.wantWaits) {
				t.Fatalf("waits %v, want %v", clock.waits, tt.wantWaits)
			}
			for i := range clock.waits {
				if clock.waits[i] != tt.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, clock.waits[i], tt.wantWaits[i])
				}
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// A cancelled caller stops the wait at once.
func TestRetryPolicyCancelDuringWait(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := RetryPolicy{MaxRetries: 3, BaseDelay: 10 * time.Second, MaxDelay: 10 * time.Second}.Do(ctx, func(context.Context) error {
		return &ProviderError{Code: CodeUnavailable, Retryable: true}
	})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("err = %v after %s", err, time.Since(start))
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"1", time.Second},
		{" 120 ", 2 * time.Minute},
		{"0", 0},
		{"-5", 0},
		{"soon", 0},
		{"999999", 0}, // more than a day: ignored
		{now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second},
		{now.Add(-5 * time.Second).Format(http.TimeFormat), 0},
		{"Thu, 15 Jan 2026 12:00:30 GMT", 30 * time.Second},
	}
	for _, tt := range tests {
		if got := ParseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
