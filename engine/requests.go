package engine

import (
	"context"
	"strings"

	"github.com/nl2sql/nl2sql/engine/llm"
)

// PlanRequest returns the first planner call Ask would send for question on
// datasource ("" picks the datasource as Ask does), without sending it. The
// datasource is opened (snapshot) if it is not yet. Tools use it to compare
// a recording's prompt_sha256 with the prompt the current code sends
// (nl2sql recordings check). Errors are *Error.
func (e *Engine) PlanRequest(ctx context.Context, datasource, question string) (llm.Request, error) {
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return llm.Request{}, err
	}
	q := strings.TrimSpace(question)
	return e.planRequest(ds, q, e.retrieve(ctx, ds, q), e.opts.Today(), nil, 0), nil
}
