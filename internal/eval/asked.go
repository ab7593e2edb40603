package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Planners that take each question through the whole system (retrieval,
// a model's plan, validation with repair, rendering, execution) instead of
// lifting the gold SQL: their Asker answers from a model's recorded
// answers (replay) or from a live model (live). Run measures both the same
// way; the names are what the report shows.
const (
	PlannerReplay = "replay"
	PlannerLive   = "live"
)

// DBAsker answers one benchmark question over one benchmark database with the
// whole system; internal/app builds one per model configuration. It is
// declared here, where it is used.
type DBAsker interface {
	// Ask answers question (with BIRD's evidence appended, when any) over
	// the SQLite database dbID at dbPath. An error is the system's typed
	// refusal or failure; the case then counts as an error with its text.
	Ask(ctx context.Context, dbID, dbPath, question string) (*Answer, error)
}

// Answer is what the system returned for a question.
type Answer struct {
	Columns []string
	Rows    [][]any
	// Truncated is true when the row limit cut the result.
	Truncated bool
	SQL       string
	Plan      any
	// Ordered is true when the plan orders its rows (ORDER BY at the top).
	Ordered bool
	// PlanSource is llm, cache, verified, … (engine's SubQuery.PlanSource).
	PlanSource string
	Usage      AskUsage
}

// AskUsage is one question's model use and time.
type AskUsage struct {
	ModelCalls   int     `json:"model_calls"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	ModelMS      float64 `json:"model_ms"`
	// LatencyMS is the question's whole time in the system (total_ms).
	LatencyMS float64 `json:"latency_ms"`
}

// UsageSummary totals the model use of a run with an Asker and gives the
// per-question latency's median and p95 (nearest rank), in ms.
type UsageSummary struct {
	ModelCalls      int     `json:"model_calls"`
	InputTokens     int     `json:"input_tokens"`
	OutputTokens    int     `json:"output_tokens"`
	LatencyMedianMS float64 `json:"latency_median_ms"`
	LatencyP95MS    float64 `json:"latency_p95_ms"`
}

// asksQuestion is runCase for a planner with an Asker: the question (and
// evidence) goes through the system, the rows are compared with the gold
// SQL's on SQLite by the same rules as the oracle's.
func asksQuestion(ctx context.Context, opts Options, d *database, q Question) Case {
	c := Case{ID: q.ID, DBID: q.DBID, Question: q.Question, GoldSQL: q.Gold, Rowless: d.rowless}
	if d.err != nil {
		c.Status, c.Reason = StatusError, "database: "+d.err.Error()
		return c
	}
	text := q.Question
	if q.Evidence != "" {
		text += "\nEvidence: " + q.Evidence
	}
	start := time.Now()
	ans, err := opts.Asker.Ask(ctx, q.DBID, DBPath(opts.DBRoot, q.DBID), text)
	if err != nil {
		c.Usage = &AskUsage{LatencyMS: float64(time.Since(start).Microseconds()) / 1e3}
		c.Status, c.Reason = StatusError, "ask: "+err.Error()
		return c
	}
	u := ans.Usage
	c.Usage, c.Plan, c.SQL, c.PlanSource = &u, ans.Plan, ans.SQL, ans.PlanSource
	if b, err := json.Marshal(ans.Plan); err == nil {
		c.Plan = json.RawMessage(b)
	}
	gctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	gold, err := d.gold.run(gctx, q.Gold, opts.MaxRows)
	cancel()
	switch {
	case err != nil:
		c.Status, c.Reason = StatusError, "gold SQL fails on SQLite: "+err.Error()
	case gold.truncated || ans.Truncated:
		c.Status, c.Reason = StatusError, fmt.Sprintf("result over %d rows", opts.MaxRows)
	case d.rowless:
		c.Status, c.Reason = StatusRuns, "ran on a database with no rows: nothing to compare"
	default:
		// No tie allowance here: the system's plan is not re-run with
		// its keys, so a pass is always exact.
		if why := compareTables(gold, &table{cols: ans.Columns, rows: ans.Rows}, ans.Ordered); why != "" {
			c.Status, c.Reason = StatusFail, "result: "+why
		} else {
			c.Status, c.Match = StatusPass, MatchExact
		}
	}
	return c
}

// summariseUsage fills r.Usage from the cases.
func (r *Report) summariseUsage() {
	var lat []float64
	s := &UsageSummary{}
	for _, c := range r.Cases {
		if c.Usage == nil {
			continue
		}
		s.ModelCalls += c.Usage.ModelCalls
		s.InputTokens += c.Usage.InputTokens
		s.OutputTokens += c.Usage.OutputTokens
		lat = append(lat, c.Usage.LatencyMS)
	}
	sort.Float64s(lat)
	if len(lat) > 0 {
		s.LatencyMedianMS, s.LatencyP95MS = percentile(lat, 0.5), percentile(lat, 0.95)
	}
	r.Usage = s
}

// checkPlanner validates Options.Planner against Options.Asker.
func checkPlanner(opts Options) error {
	switch opts.Planner {
	case PlannerOracle:
		return nil
	case PlannerReplay, PlannerLive:
		if opts.Asker == nil {
			return fmt.Errorf("eval: planner %q needs an Asker (the CLI builds it from --config or --recordings)", opts.Planner)
		}
		return nil
	}
	return errors.New("eval: unknown planner " + fmt.Sprintf("%q", opts.Planner) + " (want oracle, replay or live)")
}
