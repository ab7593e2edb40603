package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/source"
	"github.com/nl2sql/nl2sql/planast"
)

// scaleCand is one candidate plan on its way through generation, repair and
// execution.
type scaleCand struct {
	idx      int
	strategy string
	sample   int
	temp     *float64
	// revise is the revision block (the reviewed plan and its critique) of
	// a revision candidate.
	revise string
	issues []planast.Issue
	// attempts counts the planner calls made for it.
	attempts int
	done     bool
	plan     *planned
	err      error
	sql      string
	rows     *source.Result
	hash     string
	bucket   int
}

// stage is the usage stage of c's next call.
func (c *scaleCand) stage() string {
	switch {
	case c.attempts > 0:
		return "repair"
	case c.strategy == StrategyRevision:
		return "revise"
	}
	return "candidates"
}

// initialCandidates lists the configured samples in strategy order.
func (s *scaleRun) initialCandidates() []*scaleCand {
	var out []*scaleCand
	for _, st := range s.cfg.Strategies {
		for i := range st.Samples {
			out = append(out, &scaleCand{idx: len(out), strategy: st.Name, sample: i, temp: st.Temperature})
		}
	}
	return out
}

// candidateStep is the record/replay step of a strategy's calls.
func candidateStep(strategy string, repair bool) string {
	step := map[string]string{StrategyPlain: "plan", StrategyReasoning: "plan_reasoning",
		StrategyDecompose: "plan_decompose", StrategyRevision: "plan_revise"}[strategy]
	if repair {
		step += "_repair"
	}
	return step
}

// candidateRequest builds attempt a of candidate c. The plain strategy's
// sample 0 is the single-call request itself (planRequest); other requests
// add their strategy's block to the user message. The replay key is the
// strategy's step (plus "_repair" for repairs) and sample index×100 + a,
// so sample 0 of plain replays the recordings of the single-call path.
func (s *scaleRun) candidateRequest(c *scaleCand) llm.Request {
	a := c.attempts
	req := s.e.planRequest(s.ds, s.q, s.sctx, s.today, c.issues, a)
	if block := strategyBlock(c.strategy) + c.revise; block != "" {
		msgs := append([]llm.Message(nil), req.Messages...)
		msgs[len(msgs)-1].Content += block
		req.Messages, req.PromptHash = msgs, promptHash(msgs, s.today)
	}
	req.Step = candidateStep(c.strategy, a > 0)
	req.Sample = c.sample*100 + a
	req.Temperature = c.temp
	return req
}

// generate plans the candidates in rounds: every open candidate's next
// attempt is reserved against the token budget in candidate order (so the
// same budget skips the same candidates on every run), then the reserved
// calls run concurrently. A refused plan goes back with its typed issues,
// at most MaxRepairs times, as on the single-call path.
func (s *scaleRun) generate(ctx context.Context, cands []*scaleCand) {
	for round := 0; round <= s.e.opts.MaxRepairs; round++ {
		type call struct {
			c   *scaleCand
			req llm.Request
			n   int
		}
		var calls []call
		for _, c := range cands {
			if c.done {
				continue
			}
			stage := c.stage()
			req := s.candidateRequest(c)
			n, ok := s.reserve(stage, &req)
			if !ok {
				c.done, c.err = true, Errorf(CodePlanInvalid, "raise scaling.token_budget", "the token budget could not hold this candidate's %s call", stage)
				continue
			}
			calls = append(calls, call{c, req, n})
		}
		if len(calls) == 0 {
			return
		}
		s.parallel(len(calls), func(i int) {
			cl := calls[i]
			resp, err := s.send(ctx, cl.c.stage(), cl.req, cl.n, s.e.opts.Planner)
			s.accept(ctx, cl.c, resp, err)
		})
	}
	for _, c := range cands {
		if !c.done {
			c.done = true
			c.err = &Error{Code: CodePlanInvalid, Issues: c.issues,
				Msg:  fmt.Sprintf("the planner gave no valid plan in %d attempts: %s", c.attempts, (&planast.Error{Issues: c.issues}).Error()),
				Hint: "rephrase the question with the table or column names you mean"}
		}
	}
}

// accept takes one answer for c: a validated plan ends it; a refused or
// invalid answer leaves it open with the issues for its repair; anything
// else ends it with the error.
func (s *scaleRun) accept(ctx context.Context, c *scaleCand, resp *llm.Response, err error) {
	c.attempts++
	var bad *llm.InvalidOutputError
	var nr *llm.NoRecordingError
	switch {
	case errors.As(err, &bad):
		c.issues = []planast.Issue{{Code: planast.CodeMalformed, Message: bad.Reason}}
		return
	case c.attempts > 1 && errors.As(err, &nr):
		c.done, c.err = true, &Error{Code: CodePlanInvalid, Issues: c.issues,
			Msg:  "the recorded plan is invalid and no repair is recorded: " + (&planast.Error{Issues: c.issues}).Error(),
			Hint: "re-record this question with a live model (nl2sql ask --record DIR)", Err: err}
		return
	case err != nil:
		c.done, c.err = true, deadline(ctx, providerError(err))
		return
	}
	ans, plan, perr := decodePlanAnswer(resp.Content)
	if perr == nil {
		var v *planast.Validated
		if v, perr = s.e.validateFor(ctx, s.ds, plan); perr == nil {
			c.done = true
			c.plan = &planned{plan: v.Plan, columns: v.Columns, types: v.Types, warnings: v.Warnings, reasoning: ans.Reasoning,
				source: "llm", planner: plan}
			return
		}
	}
	var pe *planast.Error
	if !errors.As(perr, &pe) {
		c.done, c.err = true, AsError(perr)
		return
	}
	c.issues = pe.Issues
}

// executeAll renders and runs every planned candidate read-only, at most
// Concurrency at a time, and hashes each result.
func (s *scaleRun) executeAll(ctx context.Context, cands []*scaleCand) {
	s.parallel(len(cands), func(i int) {
		c := cands[i]
		if c.plan == nil {
			return
		}
		sql, err := s.e.render(s.ds, c.plan)
		if err == nil {
			c.sql = sql
			c.rows, err = s.e.execute(ctx, s.ds, sql)
		}
		if err != nil {
			c.err, c.rows = deadline(ctx, err), nil
			return
		}
		applyPlanTypes(c.rows, c.plan.types)
		c.hash = resultHash(c.rows)
	})
}
