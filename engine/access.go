package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/spans"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/scope"
)

type callerKey struct{}

// WithCaller returns a context carrying the caller's access scope. The MCP
// HTTP layer sets it from the authenticated token; nothing else may (tool
// arguments never carry identity). Without one, the engine acts as the
// config's local_user (stdio, CLI), or single-user when no roles exist.
func WithCaller(ctx context.Context, sc *scope.Scope) context.Context {
	return context.WithValue(ctx, callerKey{}, sc)
}

// caller is the scope every access decision of this request goes through.
func (e *Engine) caller(ctx context.Context) *scope.Scope {
	if sc, ok := ctx.Value(callerKey{}).(*scope.Scope); ok && sc != nil {
		return sc
	}
	if e.opts.Policy != nil {
		return e.opts.Policy.Local()
	}
	return scope.SingleUser()
}

// validateFor applies the caller's row filters to a plan and validates it
// against the snapshot with the caller's access checker, so every table
// and column (inside subqueries and CTEs too) is checked by scope. The
// input plan is not changed.
func (e *Engine) validateFor(ctx context.Context, ds *datasource, plan *planast.Query) (*validate.Result, error) {
	return spans.Validate(ctx, ds.spec.ID, func(ctx context.Context) (*validate.Result, error) {
		sc := e.caller(ctx)
		plan, err := ds.sem.Expand(plan) // metric and filter references (engine/semantic)
		if err != nil {
			return nil, err
		}
		filtered, err := scope.ApplyRowFilters(plan, ds.spec.ID, sc, ds.snap)
		if err != nil {
			var pe *planast.Error
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &Error{Code: CodeAccessDenied, Msg: "a row filter of your role cannot be applied to this plan",
				Hint: "ask your administrator; the plan was not run", Err: err}
		}
		// a sub-query must return its expected columns (multi.WithExpected)
		return validate.Plan(filtered, ds.snap, validate.Options{Access: sc.Checker(ds.spec.ID), ExpectedColumns: multi.Expected(ctx)})
	})
}

// screen refuses, before any model call, a question that names only
// things the caller may not read (the refusal names nothing hidden).
func (e *Engine) screen(ctx context.Context, ds *datasource, q string) error {
	sc := e.caller(ctx)
	if sc.Unrestricted() {
		return nil
	}
	if err := sc.Screen(ds.spec.ID, ds.snap, q); err != nil {
		return &Error{Code: CodeAccessDenied, Msg: fmt.Sprintf("this question cannot be answered from what you may read in %q", ds.spec.ID),
			Hint: "ask about tables you can see (describe_schema lists them)", Err: err}
	}
	return nil
}
