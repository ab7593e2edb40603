package engine

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/hooks"
)

// A supplied plan's plan_ms is decoding and validating it: the time spent
// resolving its datasource (opening and profiling it, the after_resolution
// hooks) is resolve_ms. Counted in plan_ms, a host reads a slow validator
// where a datasource was being opened.
func TestRunPlanTimesResolvingApart(t *testing.T) {
	const wait = 150 * time.Millisecond
	slow := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		time.Sleep(wait)
		return hooks.Decision{Action: hooks.Allow}
	})
	e := hookEngine(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "slow", Points: []hooks.Point{hooks.AfterResolution}, Hook: &hooks.HTTP{URL: slow.URL, Secret: []byte("k")}})
	})
	res, err := e.RunPlan(context.Background(), "chinook", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Artist","alias":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tm := res.Timings
	if tm.Resolve < float64(wait.Milliseconds()) {
		t.Errorf("resolve_ms = %v, want at least the %v the resolution hook took", tm.Resolve, wait)
	}
	if tm.Plan >= float64(wait.Milliseconds()) {
		t.Errorf("plan_ms = %v carries the resolution hook's %v", tm.Plan, wait)
	}
}
