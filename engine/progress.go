package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/extend"
)

// Steps lists the pipeline's step names in order, as reported to a
// ProgressFunc.
var Steps = []string{"resolve", "retrieve", "plan", "render", "execute", "answer"}

// ProgressFunc is told when a step starts: its name and its 1-based
// position among total steps. It must not block.
type ProgressFunc func(step string, index, total int)

type progressKey struct{}

// WithProgress returns a context whose requests report step progress to f
// (the MCP ask tool turns these into notifications/progress).
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progress reports that step starts (step.started, the ProgressFunc) and
// returns the context of its span (stepSpan), under which the step's work
// runs.
func progress(ctx context.Context, step string) context.Context {
	extend.Step(ctx, step)
	ctx = stepSpan(ctx, step)
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	if f == nil {
		return ctx
	}
	for i, s := range Steps {
		if s == step {
			f(step, i+1, len(Steps))
			break
		}
	}
	return ctx
}
