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
			// The caller learns no more (the fault names columns they may
			// not see); the operator reads which filter and why in this
			// log line and the run's trace (Err's OperatorDetail).
			var fe *scope.FilterError
			if errors.As(err, &fe) {
				e.log.Warn("a row filter cannot be applied; the caller's plan was refused", "datasource", ds.spec.ID,
					"user", sc.Identity().User, "table", fe.Table, "reason", fe.Msg, "filter", fe.OperatorDetail())
			}
			return nil, &Error{Code: CodeAccessDenied, Msg: "a row filter of your role cannot be applied to this plan",
				Hint: "ask the server's operator, who can see why with `nl2sql doctor`; the plan was not run", Err: err}
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
