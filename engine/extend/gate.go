package extend

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// Gate runs the operators' hooks and publishes the catalogued events of
// one engine. A nil Hooks runs none; a nil Events drops the events (the
// request's sink still gets the caller-safe ones).
type Gate struct {
	Hooks  *hooks.Runner
	Events *events.Bus
	Log    *slog.Logger
}

// Run is the identity and start of the run a hook decides on.
type Run struct {
	ID      string
	User    string
	Roles   []string
	Started time.Time
}

// Hook runs the hooks of point p with the run's identity and time filled
// in, and publishes each decision. A deny becomes REFUSED_BY_RULE naming
// only the rule; the reason goes to the log and the events, never to the
// caller.
func (g Gate) Hook(ctx context.Context, p hooks.Point, run Run, in hooks.Input) (hooks.Outcome, error) {
	if !g.Hooks.Has(p) {
		return hooks.Outcome{Question: in.Question, Datasources: in.Datasources}, nil
	}
	in.RunID, in.User, in.Roles = run.ID, run.User, run.Roles
	in.Time = run.Started.Format(time.RFC3339Nano)
	out, err := g.Hooks.Run(ctx, p, in)
	for _, r := range out.Records {
		g.Emit(ctx, events.HookDecision{RunID: run.ID, Point: string(r.Point), Hook: r.Hook, Decision: string(r.Action), Reason: r.Reason, Failed: r.Failed})
	}
	var de *hooks.DeniedError
	if errors.As(err, &de) {
		g.Log.Info("refused by rule", "run", run.ID, "point", de.Point, "hook", de.Hook, "reason", de.Reason)
		return out, &fault.Error{Code: fault.CodeRefusedByRule, Msg: de.Error(), Hint: "an operator's rule does not allow this request; ask your administrator", Err: err}
	}
	return out, err
}

// Unstable refuses a run whose hooks do not settle on one question or
// plan: after a rewrite or a change, every hook of the point runs again on
// the result, and a hook that changes it again differently means the hooks
// disagree (fail closed). A changing hook must be idempotent.
func Unstable(what string) error {
	return fault.Errorf(fault.CodeRefusedByRule, "ask your administrator: a hook that changes the "+what+" must leave its own result unchanged",
		"the configured hooks do not agree on the %s", what)
}

// BeforeRun runs the before_run hooks on question q and returns the
// (possibly rewritten) question. A rewrite is checked: every before_run
// hook sees the rewritten question (a pattern rule listed before the
// rewriting hook included), and one that rewrites it again refuses.
func (g Gate) BeforeRun(ctx context.Context, run Run, q string) (string, error) {
	out, err := g.Hook(ctx, hooks.BeforeRun, run, hooks.Input{Question: q})
	if err != nil {
		return "", err
	}
	if out.Question != q {
		chk, err := g.Hook(ctx, hooks.BeforeRun, run, hooks.Input{Question: out.Question})
		if err != nil {
			return "", err
		}
		if chk.Question != out.Question {
			return "", Unstable("question")
		}
	}
	return out.Question, nil
}

// Emit publishes ev to the bus and, when it is caller-safe, to the
// request's event sink (MCP progress).
func (g Gate) Emit(ctx context.Context, ev events.Event) {
	g.Events.Publish(ctx, ev)
	if f, _ := ctx.Value(sinkKey{}).(func(events.Event)); f != nil && events.CallerSafe(ev.EventName()) {
		f(ev)
	}
}

type sinkKey struct{}

// WithEventSink returns a context whose requests hand their caller-safe
// events (events.CallerSafe) to f. f must not block.
func WithEventSink(ctx context.Context, f func(events.Event)) context.Context {
	return context.WithValue(ctx, sinkKey{}, f)
}

type runKey struct{}

// stepper is the gate and id of the run a context belongs to, and the step
// in progress.
type stepper struct {
	g    Gate
	id   string
	mu   sync.Mutex
	step string
	t0   time.Time
}

// WithRun marks ctx as run id's, so that Step publishes its step events.
func (g Gate) WithRun(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, runKey{}, &stepper{g: g, id: id})
}

// Step publishes step.finished for the step in progress and step.started
// for step; step "" only finishes. Outside a run (WithRun) it does nothing.
func Step(ctx context.Context, step string) {
	r, _ := ctx.Value(runKey{}).(*stepper)
	if r == nil {
		return
	}
	r.mu.Lock()
	prev, t0 := r.step, r.t0
	r.step, r.t0 = step, time.Now()
	r.mu.Unlock()
	if prev != "" {
		r.g.Emit(ctx, events.StepFinished{RunID: r.id, Step: prev, DurationMS: ms(time.Since(t0))})
	}
	if step != "" {
		r.g.Emit(ctx, events.StepStarted{RunID: r.id, Step: step})
	}
}

// ms is a duration in milliseconds rounded to microseconds, as the
// engine's timings are.
func ms(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}
