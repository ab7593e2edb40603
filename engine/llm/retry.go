package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry defaults (see RetryPolicy).
const (
	DefaultMaxRetries = 4
	DefaultRetryMax   = 30 * time.Second
	DefaultBaseDelay  = 500 * time.Millisecond
	DefaultMaxDelay   = 8 * time.Second
)

// RetryPolicy is the one retry loop around live model calls; the SDKs' own
// retries are off so that the two never nest. It retries a
// *ProviderError with Retryable set (429, 408, 409, 5xx, per-call timeouts,
// connection errors) and nothing else: an *InvalidOutputError goes back to
// the engine, which repairs, and a cancelled or expired caller context
// stops at once.
//
// Wait before retry n (0-based): the server's Retry-After when it sent one
// (seconds or an HTTP date), else BaseDelay·2ⁿ capped at MaxDelay, of which
// the upper half is jittered (the wait lies in [d/2, d)). A retry is made
// only while fewer than MaxRetries were made and the time spent so far plus
// the wait stays within MaxElapsed; so one Do takes at most MaxElapsed plus
// one call's own timeout.
type RetryPolicy struct {
	MaxRetries int           // retries after the first call; <0 means none, 0 is none too
	MaxElapsed time.Duration // bound on calls and waits together; 0 means DefaultRetryMax
	BaseDelay  time.Duration // 0 means DefaultBaseDelay
	MaxDelay   time.Duration // 0 means DefaultMaxDelay
	// Jitter returns a number in [0, 1); nil means math/rand/v2. Tests
	// inject a fixed source.
	Jitter func() float64
	// Sleep waits d or until ctx ends; nil means a timer. Now is the clock;
	// nil means time.Now.
	Sleep  func(ctx context.Context, d time.Duration) error
	Now    func() time.Time
	Logger *slog.Logger
}

// DefaultRetryPolicy is DefaultMaxRetries retries within DefaultRetryMax.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: DefaultMaxRetries, MaxElapsed: DefaultRetryMax}
}

// Do calls call until it succeeds, fails for good, or the policy's bounds
// are reached; it returns call's last error. When it gives up on a
// *ProviderError after more than one call, the error's Attempts is set and
// its message says how many calls were made in how long.
func (p RetryPolicy) Do(ctx context.Context, call func(ctx context.Context) error) error {
	now := p.Now
	if now == nil {
		now = time.Now
	}
	maxElapsed := p.MaxElapsed
	if maxElapsed <= 0 {
		maxElapsed = DefaultRetryMax
	}
	start := now()
	for n := 0; ; n++ {
		err := call(ctx)
		var pe *ProviderError
		if err == nil || !errors.As(err, &pe) || !pe.Retryable || ctx.Err() != nil {
			return err
		}
		elapsed := now().Sub(start)
		wait := p.delay(n, pe.RetryAfter)
		switch {
		case n >= p.MaxRetries:
			return p.giveUp(pe, n+1, elapsed, "")
		case elapsed+wait > maxElapsed:
			why := ""
			if pe.RetryAfter > 0 {
				why = fmt.Sprintf("the server asked to wait %s, past the retry budget of %s", seconds(pe.RetryAfter), seconds(maxElapsed))
			}
			return p.giveUp(pe, n+1, elapsed, why)
		}
		if p.Logger != nil {
			p.Logger.Info("model call failed; retrying", "code", pe.Code, "status", pe.Status, "attempt", n+1, "wait", wait.String())
		}
		if err := p.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// delay is the wait before retry n (0-based).
func (p RetryPolicy) delay(n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	base, maxD := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = DefaultBaseDelay
	}
	if maxD <= 0 {
		maxD = DefaultMaxDelay
	}
	d := base
	for i := 0; i < n && d < maxD; i++ {
		d *= 2
	}
	d = min(d, maxD)
	j := p.Jitter
	if j == nil {
		j = rand.Float64
	}
	return d/2 + time.Duration(float64(d/2)*j())
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// giveUp annotates the last error with the calls made.
func (p RetryPolicy) giveUp(pe *ProviderError, calls int, elapsed time.Duration, why string) error {
	if calls > 1 {
		pe.Attempts = calls
		pe.Msg += fmt.Sprintf(" (%d calls in %s)", calls, seconds(elapsed))
	}
	if why != "" {
		pe.Msg += "; " + why
	}
	return pe
}

// ParseRetryAfter reads a Retry-After header (RFC 9110 §10.2.3): a number
// of seconds or an HTTP date, relative to now. It returns 0 for an absent,
// malformed or past value.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if n <= 0 || n > 24*3600 {
			return 0
		}
		return time.Duration(n * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// Complete runs one model call under the policy: once is one attempt, and
// before every retry req.BeforeRetry (when set) may refuse it, which ends
// the call with that error. Both providers send their requests through it.
func (p RetryPolicy) Complete(ctx context.Context, req Request, once func(context.Context) (*Response, error)) (*Response, error) {
	var out *Response
	attempt := 0
	err := p.Do(ctx, func(ctx context.Context) error {
		if err := req.beforeRetry(attempt); err != nil {
			return err
		}
		attempt++
		r, err := once(ctx)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
