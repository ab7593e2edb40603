package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/planschema"
	"github.com/nl2sql/nl2sql/planast/validate"
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

// PlanAnswer is what the planner returns: a short explanation and a plan.
type PlanAnswer struct {
	Reasoning string          `json:"reasoning"`
	Plan      json.RawMessage `json:"plan"`
}

// planValidated asks the planner for a plan and validates it, sending the
// latest attempt's typed errors back at most MaxRepairs times.
func (e *Engine) planValidated(ctx context.Context, ds *datasource, question, sctx, today string) (*planned, error) {
	if p := e.cachedPlan(ctx, ds, question, today); p != nil {
		return p, nil
	}
	var issues []planast.Issue
	out := &planned{source: "llm"}
	for attempt := 0; attempt <= e.opts.MaxRepairs; attempt++ {
		req := e.planRequest(ds, question, sctx, today, issues, attempt)
		if err := ctx.Err(); err != nil && attempt == 0 {
			// the time went before any model call (opening the datasource,
			// retrieval): not the model's doing
			return nil, spentBeforeModel(err)
		}
		t0 := time.Now()
		resp, err := e.opts.Planner.Complete(ctx, req)
		callMS := ms(time.Since(t0))
		out.modelMS += callMS
		out.usage.ModelCalls++
		traceCall(ctx, req, resp, err, callMS)
		var bad *llm.InvalidOutputError
		if errors.As(err, &bad) {
			issues = []planast.Issue{{Code: planast.CodeMalformed, Message: bad.Reason}}
			out.rejected = append(out.rejected, Attempt{Attempt: attempt + 1, Issues: issues})
			e.log.Info("model answer invalid", "datasource", ds.spec.ID, "attempt", attempt+1, "reason", bad.Reason)
			continue
		}
		var nr *llm.NoRecordingError
		if attempt > 0 && errors.As(err, &nr) {
			// replay holds no repair for a refused plan: report the refusal
			return out, &Error{Code: CodePlanInvalid, Issues: issues,
				Msg:  "the recorded plan is invalid and no repair is recorded: " + (&planast.Error{Issues: issues}).Error(),
				Hint: "re-record this question with a live model (nl2sql ask --record DIR)", Err: err}
		}
		if err != nil {
			return nil, providerError(err)
		}
		out.usage.InputTokens += resp.Usage.InputTokens
		out.usage.OutputTokens += resp.Usage.OutputTokens
		ans, plan, perr := decodePlanAnswer(resp.Content)
		if perr == nil {
			var v *validate.Result
			v, perr = e.validateFor(ctx, ds, plan)
			if perr == nil {
				out.plan, out.columns, out.types, out.reasoning, out.attempts = v.Plan, v.Columns, v.Types, ans.Reasoning, attempt+1
				out.warnings = v.Warnings
				out.planner = plan
				return out, nil
			}
		}
		var pe *planast.Error
		if !errors.As(perr, &pe) {
			return nil, AsError(perr)
		}
		issues = pe.Issues
		out.rejected = append(out.rejected, Attempt{Attempt: attempt + 1, Issues: issues})
		e.log.Info("plan refused", "datasource", ds.spec.ID, "attempt", attempt+1, "issues", len(issues), "first", pe.FirstCode())
	}
	return out, &Error{Code: CodePlanInvalid, Issues: issues,
		Msg:  fmt.Sprintf("the planner gave no valid plan in %d attempts: %s", e.opts.MaxRepairs+1, (&planast.Error{Issues: issues}).Error()),
		Hint: "rephrase the question with the table or column names you mean, or use explain_plan to see the plan"}
}

// planAnswerSchema is the JSON Schema of the planner's answer, computed once.
var planAnswerSchema = planschema.Answer()

// planRequest builds the structured call for one planning attempt. The
// first attempt is step "plan"; repairs are "plan_repair" with the attempt
// number as sample, so replay can hold a recorded repair.
func (e *Engine) planRequest(ds *datasource, question, sctx, today string, issues []planast.Issue, attempt int) llm.Request {
	msgs := planPrompt(today, ds.src.Dialect(), sctx, question, issues)
	step := "plan"
	if attempt > 0 {
		step = "plan_repair"
	}
	return llm.Request{
		Step: step, Datasource: ds.spec.ID, Intent: question, Sample: attempt,
		Messages: msgs, SchemaName: "plan_answer", Schema: planAnswerSchema, PromptHash: modeltext.Hash(msgs, today),
	}
}

// decodePlanAnswer parses {"reasoning", "plan"} strictly.
func decodePlanAnswer(b json.RawMessage) (*PlanAnswer, *planast.Query, error) {
	var ans PlanAnswer
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed,
			Message: "the answer must be a JSON object {\"reasoning\": string, \"plan\": object}: " + err.Error()}}}
	}
	if len(ans.Plan) == 0 || string(ans.Plan) == "null" {
		return nil, nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed, Path: "plan", Message: "the answer has no plan"}}}
	}
	plan, err := planast.Decode(ans.Plan, planast.DefaultLimits)
	if err != nil {
		return nil, nil, err
	}
	return &ans, plan, nil
}

// spentBeforeModel is the error of a request whose time ran out before
// its first model call.
func spentBeforeModel(err error) *Error {
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Msg: "the request was cancelled", Err: err}
	}
	return &Error{Code: CodeTimeout, Retryable: true, Err: err,
		Msg:  "the request ran past its time limit before the model was called (opening the datasource and retrieval took it)",
		Hint: "build the datasource's index ahead of time (nl2sql index), raise the request timeout, or ask again"}
}

func providerError(err error) *Error { return fault.Provider(err) }

// traceCall records a model call in the request's trace, if any.
func traceCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, callMS float64) {
	tr := traceFrom(ctx)
	if tr == nil {
		return
	}
	c := ModelCall{Step: req.Step, Datasource: req.Datasource, Intent: req.Intent, Sample: req.Sample,
		PromptHash: req.PromptHash, Messages: req.Messages, MS: callMS}
	if resp != nil {
		c.Answer, c.Provider, c.Model, c.Usage = resp.Content, resp.Provider, resp.Model, resp.Usage
	}
	if err != nil {
		c.Error = err.Error()
	}
	tr.call(c)
}
