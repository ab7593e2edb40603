package engine

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// observedPlanner publishes a model.call event for every call of p.
type observedPlanner struct {
	p   Planner
	bus *events.Bus
}

// observeModels wraps every model the engine calls (the planner, the
// answerer, and the selector that judges and critiques scaling candidates)
// so every model call is an event (counts and names only, never prompts or
// answers).
func observeModels(o *Options) {
	if o.Events == nil {
		return
	}
	o.Planner = observedPlanner{o.Planner, o.Events}
	if o.Answerer != nil {
		o.Answerer = observedPlanner{o.Answerer, o.Events}
	}
	if o.Selector != nil {
		o.Selector = observedPlanner{o.Selector, o.Events}
	}
}

func (op observedPlanner) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	t0 := time.Now()
	resp, err := op.p.Complete(ctx, req)
	ev := events.ModelCall{Step: req.Step, DurationMS: ms(time.Since(t0)), Failed: err != nil}
	if tr := traceFrom(ctx); tr != nil {
		ev.RunID = tr.t.ID
	}
	if resp != nil {
		ev.Provider, ev.Model, ev.InputTokens, ev.OutputTokens = resp.Provider, resp.Model, resp.Usage.InputTokens, resp.Usage.OutputTokens
	}
	op.bus.Publish(ctx, ev)
	return resp, err
}
