package scale

import (
	"fmt"
	"time"
)

// Candidate strategies of test-time scaling. Each names the prompt variant a
// candidate plan is sampled with and the record/replay step of its calls.
const (
	// StrategyPlain is the planner's own prompt, unchanged: its sample 0 is
	// byte for byte the single-call request (step "plan", sample 0).
	StrategyPlain = "plain"
	// StrategyReasoning asks the planner to reason about tables, joins and
	// filters before it writes the plan (step "plan_reasoning").
	StrategyReasoning = "reasoning"
	// StrategyDecompose asks the planner to split the question into
	// sub-questions first (step "plan_decompose").
	StrategyDecompose = "decompose"
	// StrategyRevision marks a candidate produced by the critique and
	// revision pass (step "plan_revise"); it is not configurable.
	StrategyRevision = "revision"
)

// strategyOrder ranks strategies for deterministic tie-breaks: the plain
// prompt first, revisions last.
var strategyOrder = map[string]int{StrategyPlain: 0, StrategyReasoning: 1, StrategyDecompose: 2, StrategyRevision: 3}

// Router modes of Config.Router.
const (
	// RouterOff sends every question through scaling.
	RouterOff = "off"
	// RouterFeatures decides from schema size and question features, with
	// no model call (router.go).
	RouterFeatures = "features"
	// RouterModel asks the planner's model once (step "route") whether the
	// question is easy or hard.
	RouterModel = "model"
)

// Default bounds of an enabled Config whose field is 0.
const (
	DefaultTokenBudget     = 60000
	DefaultTimeBudget      = 90 * time.Second
	DefaultMaxOutputTokens = 2048
	DefaultConcurrency     = 4
	// DefaultMaxBuckets bounds how many buckets enter the tournament
	// (the largest ones): k buckets cost k(k-1)/2 selector calls.
	DefaultMaxBuckets = 4
	// MaxCandidates bounds the candidates of one configuration.
	MaxCandidates = 32
)

// StrategySpec is how many candidates one strategy samples, and at which
// temperature (nil leaves the provider's configured temperature).
type StrategySpec struct {
	Name        string
	Samples     int
	Temperature *float64
}

// Config configures test-time scaling: several candidate plans per
// question, executed, grouped by result, and selected among. The zero value
// is disabled: questions take the single-call path unchanged.
type Config struct {
	// Strategies lists the candidates to sample; their Samples sum to the
	// candidate count (at most MaxCandidates).
	Strategies []StrategySpec
	// MaxRefinements is the number of critique and revision passes (0: none).
	MaxRefinements int
	// Tournament turns on pairwise selection by the selector model; off,
	// the largest bucket wins.
	Tournament bool
	// TokenBudget bounds the tokens of every model call of one question:
	// each call reserves its estimated input tokens plus its output cap
	// before it is sent and is skipped when the reservation does not fit.
	// 0 means DefaultTokenBudget.
	TokenBudget int
	// TimeBudget bounds the model calls of the scaling stages of one
	// question (candidates, repairs, critiques, selection; the candidates'
	// queries keep the request's own timeout); 0 means DefaultTimeBudget.
	TimeBudget time.Duration
	// MaxOutputTokens is each call's output cap in tokens, sent with the
	// call and reserved against the budget; 0 means DefaultMaxOutputTokens.
	MaxOutputTokens int
	// Concurrency bounds the model calls and queries in flight; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Router is RouterOff (""), RouterFeatures or RouterModel.
	Router string
}

// Candidates is the number of candidate plans the configuration samples.
func (c Config) Candidates() int {
	n := 0
	for _, s := range c.Strategies {
		n += s.Samples
	}
	return n
}

// Enabled reports whether the configuration asks for more than today's
// single call: more than one candidate, or a refinement pass.
func (c Config) Enabled() bool { return c.Candidates() > 1 || c.MaxRefinements > 0 }

// Check reports the first problem of the configuration as an error naming
// the field, e.g. `strategies[1].name: "clever" is not one of plain,
// reasoning, decompose`.
func (c Config) Check() error {
	seen := map[string]bool{}
	for i, s := range c.Strategies {
		switch s.Name {
		case StrategyPlain, StrategyReasoning, StrategyDecompose:
		default:
			return fmt.Errorf("strategies[%d].name: %q is not one of plain, reasoning, decompose", i, s.Name)
		}
		if seen[s.Name] {
			return fmt.Errorf("strategies[%d].name: %q is listed twice", i, s.Name)
		}
		seen[s.Name] = true
		if s.Samples < 0 {
			return fmt.Errorf("strategies[%d].samples: %d is negative", i, s.Samples)
		}
		if t := s.Temperature; t != nil && (*t < 0 || *t > 2) {
			return fmt.Errorf("strategies[%d].temperature: %v is outside [0, 2]", i, *t)
		}
	}
	switch {
	case c.Candidates() > MaxCandidates:
		return fmt.Errorf("strategies: %d candidates; the limit is %d", c.Candidates(), MaxCandidates)
	case c.MaxRefinements < 0 || c.MaxRefinements > 3:
		return fmt.Errorf("max_refinements: %d is outside [0, 3]", c.MaxRefinements)
	case c.TokenBudget < 0, c.MaxOutputTokens < 0, c.Concurrency < 0, c.TimeBudget < 0:
		return fmt.Errorf("token_budget, time_budget_seconds, max_output_tokens and concurrency must not be negative")
	}
	switch c.Router {
	case "", RouterOff, RouterFeatures, RouterModel:
	default:
		return fmt.Errorf("router: %q is not one of off, features, model", c.Router)
	}
	return nil
}

// withDefaults fills the zero bounds of an enabled configuration.
func (c Config) withDefaults() Config {
	if c.TokenBudget == 0 {
		c.TokenBudget = DefaultTokenBudget
	}
	if c.TimeBudget == 0 {
		c.TimeBudget = DefaultTimeBudget
	}
	if c.MaxOutputTokens == 0 {
		c.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Router == "" {
		c.Router = RouterOff
	}
	return c
}
