package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/answer"
)

// summarise is the template answer (engine/answer).
func summarise(r *Result) string { return answer.Summarise(answer.RowsOf(r)) }

// modelAnswer is the answer step: the answer model's reply when it keeps to
// the rows (engine/answer checks it), else the template summary, with the
// reason as a warning.
func (e *Engine) modelAnswer(ctx context.Context, ds string, res *Result) string {
	fallback := summarise(res)
	if e.opts.Answerer == nil || len(res.Rows) == 0 {
		return fallback
	}
	m := answer.Model{Answerer: e.opts.Answerer, Today: e.opts.Today(), Trace: traceCall}
	rep := m.Answer(ctx, ds, answer.RowsOf(res))
	res.Usage.Add(Usage{ModelCalls: rep.Calls, InputTokens: rep.Usage.InputTokens, OutputTokens: rep.Usage.OutputTokens})
	if rep.Warning != "" {
		res.Warnings = append(res.Warnings, rep.Warning)
	}
	if rep.Text == "" {
		return fallback
	}
	return rep.Text
}
