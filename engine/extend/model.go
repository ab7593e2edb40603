package extend

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// Model answers one structured model call: the planner, the answerer, the
// selector.
type Model interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// ObserveModel wraps m so that every call publishes a model.call event on
// bus: the step, provider, model, tokens, time and whether it failed,
// never prompts or answers. runID names the run a call belongs to ("" when
// none).
func ObserveModel(m Model, bus *events.Bus, runID func(context.Context) string) Model {
	return observedModel{m, bus, runID}
}

type observedModel struct {
	m     Model
	bus   *events.Bus
	runID func(context.Context) string
}

func (o observedModel) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	t0 := time.Now()
	resp, err := o.m.Complete(ctx, req)
	ev := events.ModelCall{Step: req.Step, DurationMS: ms(time.Since(t0)), Failed: err != nil, RunID: o.runID(ctx)}
	if resp != nil {
		ev.Provider, ev.Model, ev.InputTokens, ev.OutputTokens = resp.Provider, resp.Model, resp.Usage.InputTokens, resp.Usage.OutputTokens
	}
	o.bus.Publish(ctx, ev)
	return resp, err
}
