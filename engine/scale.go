package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sql/nl2sql/engine/llm"
)

// ScaleReport is what test-time scaling did for one question; it is in the
// result (Result.Scaling) and the trace (Trace.Scaling), and byte-identical
// for the same inputs and recordings.
type ScaleReport struct {
	// Route is "scale" or "single" (the router chose the single call);
	// RouteReason says why.
	Route       string `json:"route"`
	RouteReason string `json:"route_reason"`
	// Candidates in generation order: the configured strategies' samples,
	// then revisions.
	Candidates []CandidateReport `json:"candidates"`
	// Buckets group the executed candidates by canonical result hash, in
	// order of their first candidate; the error bucket, if any, is last.
	Buckets []BucketReport `json:"buckets"`
	// Selection is how the answer was chosen: "single_bucket", "tournament",
	// "majority" (tournament off), or "majority_selector_failed" with the
	// selector's error in SelectorError.
	Selection     string `json:"selection"`
	SelectorError string `json:"selector_error,omitempty"`
	// Selected is the id of the winning bucket (-1 when routed single).
	Selected  int              `json:"selected_bucket"`
	Critiques []CritiqueReport `json:"critiques,omitempty"`
	// Degraded is true when a token budget or the time budget cut the
	// process short; DegradedReasons say where.
	Degraded        bool     `json:"degraded"`
	DegradedReasons []string `json:"degraded_reasons,omitempty"`
	// Stages counts model calls and tokens per stage: "route", "candidates",
	// "repair", "critique", "revise", "select".
	Stages []StageUsage  `json:"stages"`
	Budget *BudgetReport `json:"budget,omitempty"`
}

// CandidateReport is one candidate plan: its strategy and sample index (the
// record/replay key), planner calls including repairs, and what it gave.
type CandidateReport struct {
	Index    int    `json:"index"`
	Strategy string `json:"strategy"`
	Sample   int    `json:"sample"`
	Attempts int    `json:"attempts"`
	SQL      string `json:"sql,omitempty"`
	RowCount int    `json:"row_count"`
	// Bucket is the id of its bucket (the error bucket when it has no result).
	Bucket int    `json:"bucket"`
	Error  string `json:"error,omitempty"`
}

// StageUsage is the model work of one scaling stage. Skipped counts calls
// not sent because the token budget could not hold them.
type StageUsage struct {
	Stage        string `json:"stage"`
	Calls        int    `json:"calls"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Skipped      int    `json:"skipped,omitempty"`
}

// stageOrder fixes the order of ScaleReport.Stages.
var stageOrder = []string{"route", "candidates", "repair", "critique", "revise", "select"}

// errBudget is returned for a call whose reservation did not fit.
var errBudget = errors.New("the token budget cannot hold this call")

// scaleRun is one scaled question in progress.
type scaleRun struct {
	e       *Engine
	ds      *datasource
	q       string
	sctx    string
	today   string
	cfg     ScaleConfig
	budget  *tokenBudget
	outer   context.Context // the request's context (its own deadline)
	tr      *traceRec       // the run's, for the hooks every candidate passes
	mu      sync.Mutex
	stages  map[string]*StageUsage
	modelMS float64
	execMS  float64 // wall time of the candidates' queries
	report  ScaleReport
}

// planMaybeScaled is the plan step when scaling may apply: a cached plan,
// else the single call when scaling is off or the router calls the question
// easy, else planScaled. The report is nil when scaling is off.
func (e *Engine) planMaybeScaled(ctx context.Context, ds *datasource, q, sctx, today string) (*planned, *ScaleReport, error) {
	cfg := e.scaling(ds)
	if !cfg.Enabled() {
		p, err := e.planValidated(ctx, ds, q, sctx, today)
		return p, nil, err
	}
	if err := cfg.Check(); err != nil { // engine/app checks the config file's; this guards Options built in code
		return nil, nil, &Error{Code: CodeInternal, Msg: "the scaling configuration is invalid: " + err.Error(),
			Hint: "fix Options.Scaling (or the datasource's Scaling)", Err: err}
	}
	if p := e.cachedPlan(ctx, ds, q, today); p != nil {
		return p, nil, nil
	}
	s := &scaleRun{e: e, ds: ds, q: q, sctx: sctx, today: today, cfg: cfg.withDefaults(), outer: ctx, stages: map[string]*StageUsage{}, tr: traceFrom(ctx)}
	if s.tr == nil {
		s.tr = &traceRec{t: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC()}}
	}
	s.budget = &tokenBudget{limit: s.cfg.TokenBudget}
	hard, reason := s.route(ctx)
	s.report.RouteReason = reason
	if !hard {
		s.report.Route, s.report.Selected = "single", -1
		p, err := e.planValidated(ctx, ds, q, sctx, today)
		if p != nil {
			s.addUsage(&p.usage)
		}
		return p, s.finishReport(ctx), err
	}
	s.report.Route = "scale"
	p, err := s.run(ctx)
	return p, s.finishReport(ctx), err
}

// run generates, executes, refines and selects; the winner's plan is
// returned for the usual render, execute and answer steps.
func (s *scaleRun) run(ctx context.Context) (*planned, error) {
	t0 := time.Now()
	sctx, cancel := context.WithTimeout(ctx, s.cfg.TimeBudget)
	defer cancel()
	cands := s.initialCandidates()
	s.generate(sctx, cands)
	s.executeAll(ctx, cands) // queries keep the request's deadline: the time budget bounds model calls
	for pass := 1; pass <= s.cfg.MaxRefinements; pass++ {
		revs := s.refine(sctx, cands, pass)
		if len(revs) == 0 {
			break
		}
		s.generate(sctx, revs)
		s.executeAll(ctx, revs)
		cands = append(cands, revs...)
	}
	buckets := bucketize(cands)
	win := s.selectBucket(sctx, buckets)
	s.report.Buckets = bucketReports(buckets)
	s.report.Candidates = candidateReports(cands)
	if sctx.Err() != nil && ctx.Err() == nil {
		s.degrade("the time budget of %s ran out", s.cfg.TimeBudget)
	}
	if win == nil {
		s.report.Selected = -1
		return nil, s.noWinner(ctx, cands)
	}
	s.report.Selected = win.id
	rep := win.members[0]
	p := *rep.planned
	p.attempts = rep.attempts
	p.ran = &ranPlan{sql: rep.sql, rows: rep.rows, execMS: s.execMS} // run once, as a candidate
	// calls overlap: the model time is the summed call time, at most the
	// stage's wall time, so Timings.Overhead stays the engine's own time
	p.modelMS = min(s.modelMS, ms(time.Since(t0)))
	s.addUsage(&p.usage)
	return &p, nil
}

// noWinner is the error when no candidate produced a runnable plan: when a
// rule held a candidate for approval, the first such candidate is stored
// for an approver (NEEDS_APPROVAL, as the single call would stop); else
// the first rule's refusal; else the first candidate's own error, as the
// single-call path would report it.
func (s *scaleRun) noWinner(ctx context.Context, cands []*scaleCand) error {
	for _, c := range cands {
		if c.held != nil {
			return s.e.requireApproval(ctx, s.ds, s.q, c.planned, c.held.sql, c.held.reason, s.tr)
		}
	}
	for _, c := range cands {
		if c.err != nil && refusedByRule(c.err) {
			return c.err
		}
	}
	for _, c := range cands {
		if c.err != nil {
			return deadline(ctx, c.err)
		}
	}
	return Errorf(CodePlanInvalid, "rephrase the question or raise scaling.token_budget", "no candidate plan could be produced within the budget")
}

// addUsage adds every stage's model work to u.
func (s *scaleRun) addUsage(u *Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.stages {
		u.ModelCalls += st.Calls
		u.InputTokens += st.InputTokens
		u.OutputTokens += st.OutputTokens
	}
}

// finishReport orders the stages, fills the budget, stores the report in
// the trace and returns it.
func (s *scaleRun) finishReport(ctx context.Context) *ScaleReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &s.report
	r.Stages = []StageUsage{}
	for _, name := range stageOrder {
		if st, ok := s.stages[name]; ok {
			r.Stages = append(r.Stages, *st)
		}
	}
	if r.Route == "scale" || s.budget.reserved > 0 {
		r.Budget = &BudgetReport{Limit: s.budget.limit, Used: s.budget.reserved, Refused: s.budget.refused}
	}
	if r.Candidates == nil {
		r.Candidates = []CandidateReport{}
	}
	if r.Buckets == nil {
		r.Buckets = []BucketReport{}
	}
	if tr := traceFrom(ctx); tr != nil {
		tr.mu.Lock()
		tr.t.Scaling = r
		tr.mu.Unlock()
	}
	return r
}

// degrade records that a budget cut the process short.
func (s *scaleRun) degrade(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	for _, r := range s.report.DegradedReasons {
		if r == msg {
			return
		}
	}
	s.report.Degraded = true
	s.report.DegradedReasons = append(s.report.DegradedReasons, msg)
}

// stage returns the usage record of a stage; call with s.mu held.
func (s *scaleRun) stage(name string) *StageUsage {
	st, ok := s.stages[name]
	if !ok {
		st = &StageUsage{Stage: name}
		s.stages[name] = st
	}
	return st
}

// reserve reserves req's estimated input plus its output cap, returning the
// reservation, or 0 and false (counted as skipped) when it does not fit.
func (s *scaleRun) reserve(stage string, req *llm.Request) (int, bool) {
	req.MaxOutputTokens = s.cfg.MaxOutputTokens
	n := estimateInput(*req) + req.MaxOutputTokens
	if s.budget.reserve(n) {
		return n, true
	}
	s.mu.Lock()
	s.stage(stage).Skipped++
	s.mu.Unlock()
	s.degrade("the token budget of %d tokens could not hold every %s call", s.budget.limit, stage)
	return 0, false
}

// errRetryOverBudget stops a provider's retries when the token budget
// cannot hold another attempt.
var errRetryOverBudget = errors.New("the token budget cannot hold a retry")

// send makes one reserved call, traces it, settles its reservation and
// counts it in its stage.
func (s *scaleRun) send(ctx context.Context, stage string, req llm.Request, reserved int, p Planner) (*llm.Response, error) {
	req.BeforeRetry = func(int) error { // a retry re-sends the input: it reserves again, or is not sent
		if !s.budget.reserve(reserved) {
			s.degrade("the token budget of %d tokens could not hold a retry of a %s call", s.budget.limit, stage)
			return errRetryOverBudget
		}
		return nil
	}
	t0 := time.Now()
	resp, err := p.Complete(ctx, req)
	callMS := ms(time.Since(t0))
	traceCall(ctx, req, resp, err, callMS)
	var used llm.Usage
	if resp != nil {
		used = resp.Usage
		s.budget.settle(reserved, used)
	} // a failed call keeps its whole reservation: what it cost is unknown
	s.mu.Lock()
	st := s.stage(stage)
	st.Calls++
	st.InputTokens += used.InputTokens
	st.OutputTokens += used.OutputTokens
	s.modelMS += callMS
	s.mu.Unlock()
	if err != nil && ctx.Err() != nil && s.outer.Err() == nil {
		s.degrade("the time budget of %s ran out", s.cfg.TimeBudget)
	}
	return resp, err
}

// parallel runs f(i) for i in [0, n) with at most the configured number in
// flight, and waits for all of them.
func (s *scaleRun) parallel(n int, f func(i int)) {
	var g errgroup.Group
	g.SetLimit(s.cfg.Concurrency)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	_ = g.Wait() // f reports through the candidates, never an error
}

// withScaleReport puts the scaling report into the result, with a warning
// when a budget cut the process short.
func withScaleReport(res *Result, r *ScaleReport) *Result {
	if res == nil || r == nil {
		return res
	}
	res.Scaling = r
	if r.Degraded {
		res.Warnings = append(res.Warnings, "test-time scaling was cut short ("+strings.Join(r.DegradedReasons, "; ")+"); the answer was selected from fewer candidates")
	}
	if r.Selection == "majority_selector_failed" {
		res.Warnings = append(res.Warnings, "the selector failed; the answer is the largest bucket's (majority vote)")
	}
	return res
}
