package scale

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/planning"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// cand is one candidate plan on its way through generation, repair and
// execution.
type cand[P any] struct {
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
	// plan is set (planned) once validated; after gate, it is the plan
	// the hooks let through.
	plan    P
	planned bool
	err     error
	sql     string
	rows    *source.Result
	hash    string
	bucket  int
	// held is set when a before_execution rule requires approval: the
	// candidate does not run, and is what an approver sees if none runs.
	held *heldCand
}

// heldCand is a candidate's SQL and the rule's reason for an approval.
type heldCand struct{ sql, reason string }

// stage is the usage stage of c's next call.
func (c *cand[P]) stage() string {
	switch {
	case c.attempts > 0:
		return "repair"
	case c.strategy == StrategyRevision:
		return "revise"
	}
	return "candidates"
}

// initialCandidates lists the configured samples in strategy order.
func (s *Run[P]) initialCandidates() []*cand[P] {
	var out []*cand[P]
	for _, st := range s.cfg.Strategies {
		for i := range st.Samples {
			out = append(out, &cand[P]{idx: len(out), strategy: st.Name, sample: i, temp: st.Temperature})
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
// sample 0 is the single-call request itself (Host.PlanRequest); other requests
// add their strategy's block to the user message. The replay key is the
// strategy's step (plus "_repair" for repairs) and sample index×100 + a,
// so sample 0 of plain replays the recordings of the single-call path.
func (s *Run[P]) candidateRequest(c *cand[P]) llm.Request {
	a := c.attempts
	req := s.h.PlanRequest(c.issues, a)
	if block := strategyBlock(c.strategy) + c.revise; block != "" {
		msgs := append([]llm.Message(nil), req.Messages...)
		msgs[len(msgs)-1].Content += block
		req.Messages, req.PromptHash = msgs, modeltext.Hash(msgs, s.q.Today)
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
func (s *Run[P]) generate(ctx context.Context, cands []*cand[P]) {
	for round := 0; round <= s.deps.MaxRepairs; round++ {
		type call struct {
			c   *cand[P]
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
				c.done, c.err = true, fault.Errorf(fault.CodePlanInvalid, "raise scaling.token_budget", "the token budget could not hold this candidate's %s call", stage)
				continue
			}
			calls = append(calls, call{c, req, n})
		}
		if len(calls) == 0 {
			return
		}
		s.parallel(len(calls), func(i int) {
			cl := calls[i]
			resp, err := s.send(ctx, cl.c.stage(), cl.req, cl.n, s.deps.Planner)
			s.accept(ctx, cl.c, resp, err)
		})
	}
	for _, c := range cands {
		if !c.done {
			c.done = true
			c.err = planning.GaveUp(c.attempts, c.issues, "rephrase the question with the table or column names you mean")
		}
	}
}

// accept takes one answer for c (planning.Accept, as the single call
// judges its answers): a validated plan ends it; a refused or invalid
// answer leaves it open with the issues for its repair; anything else ends
// it with the error.
func (s *Run[P]) accept(ctx context.Context, c *cand[P], resp *llm.Response, err error) {
	v := planning.Accept(ctx, c.attempts, c.issues, resp, err, s.h.Validate)
	c.attempts++
	switch v.Kind {
	case planning.Valid:
		c.done, c.plan, c.planned = true, v.Plan, true
	case planning.Refused:
		c.issues = v.Issues
	case planning.ProviderFailed:
		c.done, c.err = true, fault.Deadline(ctx, v.Err)
	default:
		c.done, c.err = true, v.Err
	}
}

// executeAll passes every planned candidate through the hooks a single
// plan passes around its run, as that plan would: after_planning and
// before_execution before the database sees it, after_execution before its
// rows reach the selector, the critic or the caller. The candidates they
// let through run read-only, at most Concurrency at a time, and each
// result is hashed. The hooks are called one candidate at a time in
// candidate order, so their decisions and events come in the same order on
// every run. A candidate a rule refuses goes to the error bucket with the
// refusal; the others still compete.
func (s *Run[P]) executeAll(ctx context.Context, cands []*cand[P]) {
	var run []*cand[P]
	for _, c := range cands {
		if c.planned && s.gate(ctx, c) {
			run = append(run, c)
		}
	}
	t0 := time.Now()
	s.parallel(len(run), func(i int) {
		c := run[i]
		rows, err := s.h.Execute(ctx, c.plan, c.sql)
		if err != nil {
			c.err = fault.Deadline(ctx, err)
			return
		}
		c.rows = rows
	})
	s.exec += time.Since(t0) // executeAll runs on one goroutine: no lock
	for _, c := range run {
		if c.rows == nil {
			continue
		}
		if err := s.h.CheckResult(ctx, c.plan, c.rows); err != nil {
			c.err, c.rows = err, nil // its rows reach no model and no caller
			continue
		}
		c.hash = resultHash(c.rows)
	}
}

// gate passes c through the hooks before its run (Host.Gate): a changed
// plan replaces c's; it reports whether c may run. A deny ends c with the
// rule's refusal; an approval requirement holds c (c.held) without running
// it.
func (s *Run[P]) gate(ctx context.Context, c *cand[P]) bool {
	g, err := s.h.Gate(ctx, c.plan)
	if err != nil {
		c.err = err
		return false
	}
	c.plan = g.Plan
	if g.Held {
		c.held = &heldCand{sql: g.SQL, reason: g.Reason}
		c.err = fault.Errorf(fault.CodeNeedsApproval, "a candidate that needs no approval answers; if none does, an approver decides",
			"a rule requires approval before this candidate runs")
		return false
	}
	c.sql = g.SQL
	return true
}
