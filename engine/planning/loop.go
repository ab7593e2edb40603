package planning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast"
)

// Model answers one structured model call. *llm.Replay and the live
// providers implement it.
type Model interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// Validator decodes a planner answer (Decode) and validates its plan for
// the caller. A *planast.Error in the chain sends the plan back to the
// planner with its issues; any other error ends the planning.
type Validator[P any] func(ctx context.Context, answer json.RawMessage) (P, error)

// Kind says what one planner answer comes to.
type Kind int

const (
	// Valid: the plan validated; Verdict.Plan holds it.
	Valid Kind = iota
	// Refused: the answer broke its schema or the plan did not validate;
	// Verdict.Issues go back to the planner.
	Refused
	// Unrepaired: replay holds no repair for a refused plan; Verdict.Err
	// is PLAN_INVALID with the refused plan's issues.
	Unrepaired
	// ProviderFailed: the model call failed; Verdict.Err is the provider's
	// error as a boundary error.
	ProviderFailed
	// Failed: the validator failed other than by refusing the plan.
	Failed
)

// Verdict is what one planner answer comes to.
type Verdict[P any] struct {
	Kind   Kind
	Plan   P
	Issues []planast.Issue
	Err    error
	// Invalid: the model's answer broke its schema
	// (llm.InvalidOutputError); Issues[0].Message says why.
	Invalid bool
}

// Accept judges the planner's answer to attempt (0-based), whose request
// carried issues (the attempt before it's), with validate. The single call
// and every scaling candidate (engine/scale) judge their answers here, so
// both repair and give up alike.
func Accept[P any](ctx context.Context, attempt int, issues []planast.Issue, resp *llm.Response, err error, validate Validator[P]) Verdict[P] {
	var bad *llm.InvalidOutputError
	var nr *llm.NoRecordingError
	switch {
	case errors.As(err, &bad):
		return Verdict[P]{Kind: Refused, Issues: []planast.Issue{{Code: planast.CodeMalformed, Message: bad.Reason}}, Invalid: true}
	case attempt > 0 && errors.As(err, &nr):
		return Verdict[P]{Kind: Unrepaired, Err: &fault.Error{Code: fault.CodePlanInvalid, Issues: issues,
			Msg:  "the recorded plan is invalid and no repair is recorded: " + (&planast.Error{Issues: issues}).Error(),
			Hint: "re-record this question with a live model (nl2sql ask --record DIR)", Err: err}}
	case err != nil:
		return Verdict[P]{Kind: ProviderFailed, Err: fault.Provider(err)}
	}
	p, perr := validate(ctx, resp.Content)
	if perr == nil {
		return Verdict[P]{Kind: Valid, Plan: p}
	}
	var pe *planast.Error
	if !errors.As(perr, &pe) {
		return Verdict[P]{Kind: Failed, Err: fault.AsError(perr)}
	}
	return Verdict[P]{Kind: Refused, Issues: pe.Issues}
}

// GaveUp is the error of a planning that used its every attempt on plans
// that did not validate; issues are the last attempt's.
func GaveUp(attempts int, issues []planast.Issue, hint string) *fault.Error {
	return &fault.Error{Code: fault.CodePlanInvalid, Issues: issues,
		Msg:  fmt.Sprintf("the planner gave no valid plan in %d attempts: %s", attempts, (&planast.Error{Issues: issues}).Error()),
		Hint: hint}
}

// Loop is the single planner call: one request, and for a refused plan
// at most MaxRepairs more, each carrying the latest attempt's typed issues.
type Loop[P any] struct {
	Model      Model
	MaxRepairs int
	Validate   Validator[P]
	// Trace records one model call in the request's trace.
	Trace func(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration)
	Log   *slog.Logger
}

// Outcome is what a planning did: the validated plan and the attempt that
// gave it (Attempts, 0 when none did), the model work, and the issues of
// every refused attempt in order (attempt i+1 was refused for Refused[i]).
type Outcome[P any] struct {
	Plan                      P
	Attempts                  int
	Calls                     int
	InputTokens, OutputTokens int
	ModelMS                   float64
	Refused                   [][]planast.Issue
}

// Run plans q. The outcome comes with a nil error when a plan validated,
// and with the error when the planner refused to the end (PLAN_INVALID,
// its issues); other errors come alone. Errors are *fault.Error.
func (l Loop[P]) Run(ctx context.Context, q Question) (*Outcome[P], error) {
	var issues []planast.Issue
	out := &Outcome[P]{}
	for attempt := 0; attempt <= l.MaxRepairs; attempt++ {
		req := Request(q, issues, attempt)
		if err := ctx.Err(); err != nil && attempt == 0 {
			// the time went before any model call (opening the datasource,
			// retrieval): not the model's doing
			return nil, SpentBeforeModel(err)
		}
		t0 := time.Now()
		resp, err := l.Model.Complete(ctx, req)
		took := time.Since(t0)
		out.ModelMS += ms(took)
		out.Calls++
		l.Trace(ctx, req, resp, err, took)
		if err == nil {
			out.InputTokens += resp.Usage.InputTokens
			out.OutputTokens += resp.Usage.OutputTokens
		}
		v := Accept(ctx, attempt, issues, resp, err, l.Validate)
		switch v.Kind {
		case Valid:
			out.Plan, out.Attempts = v.Plan, attempt+1
			return out, nil
		case Unrepaired:
			return out, v.Err
		case ProviderFailed, Failed:
			return nil, v.Err
		}
		issues = v.Issues
		out.Refused = append(out.Refused, issues)
		if v.Invalid {
			l.Log.Info("model answer invalid", "datasource", q.Datasource, "attempt", attempt+1, "reason", issues[0].Message)
		} else {
			l.Log.Info("plan refused", "datasource", q.Datasource, "attempt", attempt+1, "issues", len(issues), "first", (&planast.Error{Issues: issues}).FirstCode())
		}
	}
	return out, GaveUp(l.MaxRepairs+1, issues, "rephrase the question with the table or column names you mean, or use explain_plan to see the plan")
}

// SpentBeforeModel is the error of a request whose time ran out before
// its first model call.
func SpentBeforeModel(err error) *fault.Error {
	if errors.Is(err, context.Canceled) {
		return &fault.Error{Code: fault.CodeCancelled, Msg: "the request was cancelled", Err: err}
	}
	return &fault.Error{Code: fault.CodeTimeout, Retryable: true, Err: err,
		Msg:  "the request ran past its time limit before the model was called (opening the datasource and retrieval took it)",
		Hint: "build the datasource's index ahead of time (nl2sql index), raise the request timeout, or ask again"}
}

// ms is a duration in milliseconds to the microsecond, as the results
// report times (engine/result.MS, which this package cannot import: the
// result imports scaling, which plans here).
func ms(d time.Duration) float64 { return math.Round(float64(d)/float64(time.Microsecond)) / 1000 }
