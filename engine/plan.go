package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/planning"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// planned is the output of the plan+validate steps.
type planned struct {
	plan      *planast.Query // validated and canonicalised
	columns   []string
	types     []planast.Type
	reasoning string
	source    string
	attempts  int
	usage     Usage
	modelMS   float64
	// rejected lists, per refused attempt, the issues that sent it back.
	rejected []Attempt
	// warnings are the validator's findings that did not stop the plan
	// (validate.Result.Warnings); they reach Result.Warnings.
	warnings []string
	// planner is the plan as the planner wrote it, before row filters:
	// what the plan cache stores, so a hit is filtered for each caller.
	planner *planast.Query
	// ran is set on a scaling winner: the SQL it ran as a candidate and
	// its rows, after the hooks up to after_execution passed it; finish
	// answers from them instead of running it again.
	ran *ranPlan
	// memo is the compiled plan this one came from, when it is kept
	// (compiled.go); nil otherwise.
	memo *compiledPlan
}

// ranPlan is a plan's rendered SQL and its result, and the wall time of
// the execution stage that produced it (all candidates' queries).
type ranPlan struct {
	sql    string
	rows   *source.Result
	execMS float64
}

// Attempt is one refused planning attempt and why (engine/result).
type Attempt = result.Attempt

// PlanAnswer is what the planner returns: a short explanation and a plan
// (engine/planning).
type PlanAnswer = planning.Answer

// planValidated asks the planner for a plan and validates it, sending the
// latest attempt's typed errors back at most MaxRepairs times
// (engine/planning); a cached plan, valid for this caller, needs no call.
func (e *Engine) planValidated(ctx context.Context, ds *datasource, question, sctx, today string) (*planned, error) {
	if p := e.cachedPlan(ctx, ds, question, today); p != nil {
		return p, nil
	}
	loop := planning.Loop[*planned]{Model: e.opts.Planner, MaxRepairs: e.opts.MaxRepairs, Log: e.log,
		Validate: func(ctx context.Context, answer json.RawMessage) (*planned, error) {
			return e.validateAnswer(ctx, ds, answer)
		},
		Trace: traceCall}
	o, err := loop.Run(ctx, planQuestion(ds, question, sctx, today))
	if o == nil {
		return nil, err
	}
	p := o.Plan
	if p == nil {
		p = &planned{source: "llm"}
	}
	p.attempts, p.modelMS = o.Attempts, o.ModelMS
	p.usage = Usage{ModelCalls: o.Calls, InputTokens: o.InputTokens, OutputTokens: o.OutputTokens}
	for i, issues := range o.Refused {
		p.rejected = append(p.rejected, Attempt{Attempt: i + 1, Issues: issues})
	}
	return p, err
}

// validateAnswer decodes a planner answer and validates its plan for the
// caller: the single call's and every scaling candidate's check.
func (e *Engine) validateAnswer(ctx context.Context, ds *datasource, answer json.RawMessage) (*planned, error) {
	ans, plan, err := planning.Decode(answer)
	if err != nil {
		return nil, err
	}
	v, err := e.validateFor(ctx, ds, plan)
	if err != nil {
		return nil, err
	}
	return &planned{plan: v.Plan, columns: v.Columns, types: v.Types, warnings: v.Warnings, reasoning: ans.Reasoning,
		source: "llm", planner: plan}, nil
}

// planQuestion is what the planner is asked about question on ds.
func planQuestion(ds *datasource, question, sctx, today string) planning.Question {
	return planning.Question{Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), Text: question, SchemaContext: sctx, Today: today}
}

// planRequest is the planner call of one planning attempt (engine/planning).
func (e *Engine) planRequest(ds *datasource, question, sctx, today string, issues []planast.Issue, attempt int) llm.Request {
	return planning.Request(planQuestion(ds, question, sctx, today), issues, attempt)
}

// traceCall records a model call in the request's trace, if any.
func traceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration) {
	traceFrom(ctx).Call(req, resp, err, took)
}
