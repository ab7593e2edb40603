package scale

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
)

// Report is what test-time scaling did for one question; it is in the
// result (engine.Result.Scaling) and the trace (engine.Trace.Scaling), and
// byte-identical for the same inputs and recordings.
type Report struct {
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

// Warnings are what a result scaled this way must say: that a budget cut
// the process short, or that the selector failed and the largest bucket
// won.
func (r *Report) Warnings() []string {
	var w []string
	if r.Degraded {
		w = append(w, "test-time scaling was cut short ("+strings.Join(r.DegradedReasons, "; ")+"); the answer was selected from fewer candidates")
	}
	if r.Selection == "majority_selector_failed" {
		w = append(w, "the selector failed; the answer is the largest bucket's (majority vote)")
	}
	return w
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

// stageOrder fixes the order of Report.Stages.
var stageOrder = []string{"route", "candidates", "repair", "critique", "revise", "select"}

// Question is the question being scaled and what every prompt of it
// shows: the schema context the planner saw and the run date.
type Question struct {
	Datasource    string
	Text          string
	SchemaContext string
	Today         string
	// Tables is the size of the datasource's schema (the feature router
	// reads it).
	Tables int
}

// Deps are the models a run calls and the repair bound it shares with the
// single call.
type Deps struct {
	Planner Model
	// Selector compares and critiques candidates; nil means Planner.
	Selector Model
	// MaxRepairs bounds how often a refused candidate goes back to the
	// planner, as Options.MaxRepairs bounds the single call.
	MaxRepairs int
}

// Winner is the selected candidate: its plan as the hooks let it through,
// the planner calls it took, the SQL it ran and its rows (the pipeline
// answers from them instead of running it again), the wall time of the
// candidates' queries, and the time spent in model calls (at most the
// process's wall time: calls overlap).
type Winner[P any] struct {
	Plan     P
	Attempts int
	SQL      string
	Rows     *source.Result
	Exec     time.Duration
	Model    time.Duration
}

// Usage is the model work of a run, summed over its stages.
type Usage struct{ Calls, InputTokens, OutputTokens int }

// Run is one scaled question in progress. Route, then Plan when Route says
// scale; Report and Usage at the end, whichever way it went.
type Run[P any] struct {
	h      Host[P]
	q      Question
	deps   Deps
	cfg    Config
	budget *tokenBudget
	outer  context.Context // the request's context (its own deadline), set by Route
	mu     sync.Mutex
	stages map[string]*StageUsage
	model  time.Duration // summed model call time
	exec   time.Duration // wall time of the candidates' queries
	report Report
}

// New starts a run of q under cfg, which the caller has checked
// (Config.Check); its zero bounds take the defaults.
func New[P any](h Host[P], q Question, deps Deps, cfg Config) *Run[P] {
	cfg = cfg.withDefaults()
	return &Run[P]{h: h, q: q, deps: deps, cfg: cfg, budget: &tokenBudget{limit: cfg.TokenBudget}, outer: context.Background(),
		stages: map[string]*StageUsage{}}
}

// Route decides whether the question is scaled (true) or takes the single
// call (false), and records the decision and its reason in the report.
func (s *Run[P]) Route(ctx context.Context) bool {
	s.outer = ctx
	hard, reason := s.route(ctx)
	s.report.RouteReason = reason
	if !hard {
		s.report.Route, s.report.Selected = "single", -1
		return false
	}
	s.report.Route = "scale"
	return true
}

// Plan generates, executes, refines and selects; the winner's plan is
// returned for the pipeline's usual answer step.
func (s *Run[P]) Plan(ctx context.Context) (*Winner[P], error) {
	s.outer = ctx
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
	// calls overlap: the model time is the summed call time, at most the
	// stage's wall time, so the engine's overhead stays its own time
	s.mu.Lock()
	model := min(s.model, time.Since(t0))
	s.mu.Unlock()
	return &Winner[P]{Plan: rep.plan, Attempts: rep.attempts, SQL: rep.sql, Rows: rep.rows, Exec: s.exec, Model: model}, nil
}

// noWinner is the error when no candidate produced a runnable plan: when a
// rule held a candidate for approval, the first such candidate is stored
// for an approver (NEEDS_APPROVAL, as the single call would stop); else
// the first rule's refusal; else the first candidate's own error, as the
// single-call path would report it.
func (s *Run[P]) noWinner(ctx context.Context, cands []*cand[P]) error {
	for _, c := range cands {
		if c.held != nil {
			return s.h.Hold(ctx, c.plan, c.held.sql, c.held.reason)
		}
	}
	for _, c := range cands {
		if c.err != nil && fault.RefusedByRule(c.err) {
			return c.err
		}
	}
	for _, c := range cands {
		if c.err != nil {
			return fault.Deadline(ctx, c.err)
		}
	}
	return fault.Errorf(fault.CodePlanInvalid, "rephrase the question or raise scaling.token_budget", "no candidate plan could be produced within the budget")
}

// Usage is every stage's model work so far.
func (s *Run[P]) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var u Usage
	for _, st := range s.stages {
		u.Calls += st.Calls
		u.InputTokens += st.InputTokens
		u.OutputTokens += st.OutputTokens
	}
	return u
}

// Report orders the stages, fills the budget and returns the report.
func (s *Run[P]) Report() *Report {
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
	return r
}

// degrade records that a budget cut the process short.
func (s *Run[P]) degrade(format string, args ...any) {
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
func (s *Run[P]) stage(name string) *StageUsage {
	st, ok := s.stages[name]
	if !ok {
		st = &StageUsage{Stage: name}
		s.stages[name] = st
	}
	return st
}

// reserve reserves req's estimated input plus its output cap, returning the
// reservation, or 0 and false (counted as skipped) when it does not fit.
func (s *Run[P]) reserve(stage string, req *llm.Request) (int, bool) {
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
func (s *Run[P]) send(ctx context.Context, stage string, req llm.Request, reserved int, m Model) (*llm.Response, error) {
	req.BeforeRetry = func(int) error { // a retry re-sends the input: it reserves again, or is not sent
		if !s.budget.reserve(reserved) {
			s.degrade("the token budget of %d tokens could not hold a retry of a %s call", s.budget.limit, stage)
			return errRetryOverBudget
		}
		return nil
	}
	t0 := time.Now()
	resp, err := m.Complete(ctx, req)
	took := time.Since(t0)
	s.h.TraceCall(ctx, req, resp, err, took)
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
	s.model += took
	s.mu.Unlock()
	if err != nil && ctx.Err() != nil && s.outer.Err() == nil {
		s.degrade("the time budget of %s ran out", s.cfg.TimeBudget)
	}
	return resp, err
}

// parallel runs f(i) for i in [0, n) with at most the configured number in
// flight, and waits for all of them.
func (s *Run[P]) parallel(n int, f func(i int)) {
	var g errgroup.Group
	g.SetLimit(s.cfg.Concurrency)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	_ = g.Wait() // f reports through the candidates, never an error
}
