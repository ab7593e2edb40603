package result

import (
	"encoding/json"
	"math"
	"time"

	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/scale"
	"github.com/nl2sql/nl2sql/planast"
)

// KindAnswer is the "kind" of an answer's JSON (a plan-it-yourself
// result's is hostplan.KindPlanItYourself).
const KindAnswer = "answer"

// Result is the answer to one question. Its JSON is the same on every result
// path (CLI --json, MCP structured content) and byte-identical for the same
// inputs and recordings: no timings, no absolute paths.
type Result struct {
	Question string `json:"question"`
	// Answer is a short summary written from at most the first 20 rows.
	Answer string `json:"answer"`
	// Columns are output column names; ColumnTypes their portable types.
	Columns     []string       `json:"columns"`
	ColumnTypes []planast.Type `json:"column_types"`
	// Rows hold values encoded by the value rule of internal/source: JSON
	// numbers, strings, booleans or null.
	Rows      [][]any `json:"rows"`
	RowCount  int     `json:"row_count"`
	Truncated bool    `json:"truncated"`
	// TruncatedReason says what cut the rows when Truncated: "row_limit"
	// (the query stopped at the datasource's row limit) or "token_budget"
	// (an MCP tool result kept only the rows that fit its token budget;
	// tools/budget.go). QueryRowCount is then how many rows the query
	// returned, RowCount how many the result holds.
	TruncatedReason string `json:"truncated_reason,omitempty"`
	QueryRowCount   int    `json:"query_row_count,omitempty"`
	// SQL and Plan are those of the single sub-query (the common case).
	// For a question across datasources (engine/multi.go) they are
	// the combination's: the validated plan over the sub-query result
	// tables and the DuckDB SQL that combined them in process; each
	// sub-query's own plan and SQL are in SubQueries (in its JSON only
	// when they differ from these).
	SQL        string         `json:"sql"`
	Plan       *planast.Query `json:"plan"`
	SubQueries []SubQuery     `json:"sub_queries"`
	Warnings   []string       `json:"warnings"`
	// SQLNotes say what the shown SQL needs of the server's connection to
	// give this result elsewhere (warnings.SQLNotes): nothing about the
	// result itself.
	SQLNotes []string `json:"sql_notes,omitempty"`
	Usage    Usage    `json:"usage"`
	// Scaling is what test-time scaling did (candidates, buckets, selection,
	// usage per stage); absent when scaling is off.
	Scaling *scale.Report `json:"scaling,omitempty"`
	// Timings and TraceID differ between runs; everything else is
	// byte-identical for the same inputs and recordings.
	Timings Timings `json:"timings"`
	TraceID string  `json:"trace_id"`
	// HostPlan, when set, makes this the plan-it-yourself result of a
	// question no planner answered (engine/hostplan): its JSON is the
	// HostPlan's, and the fields above other than Question and TraceID
	// are empty.
	HostPlan *hostplan.HostPlan `json:"-"`
}

// MarshalJSON writes the result with its kind first: "answer", or the
// HostPlan (kind "plan_it_yourself") when set.
func (r Result) MarshalJSON() ([]byte, error) {
	if r.HostPlan != nil {
		return json.Marshal(r.HostPlan)
	}
	type plain Result
	if len(r.SubQueries) == 1 && r.SubQueries[0].SQL == r.SQL && r.SubQueries[0].Plan == r.Plan {
		// the single sub-query's plan and SQL are the result's own: sent
		// once, a host reads them once (and pays for them once)
		sq := r.SubQueries[0]
		sq.Plan, sq.SQL = nil, ""
		r.SubQueries = []SubQuery{sq}
	}
	return json.Marshal(struct {
		Kind string `json:"kind"`
		plain
	}{KindAnswer, plain(r)})
}

// Usage counts the model work behind a result. It never holds latency.
type Usage struct {
	ModelCalls    int `json:"model_calls"`
	InputTokens   int `json:"input_tokens"`
	OutputTokens  int `json:"output_tokens"`
	PlanCacheHits int `json:"plan_cache_hits"`
}

// Add adds o's work to u.
func (u *Usage) Add(o Usage) {
	u.ModelCalls += o.ModelCalls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.PlanCacheHits += o.PlanCacheHits
}

// SubQuery is one datasource query of a result.
type SubQuery struct {
	// ID is a content hash of the datasource and the intent: stable across runs.
	ID string `json:"id"`
	// Name is what the combination reads the sub-query's rows by (a
	// run_combined_plan source's name, a decomposer's ref); the
	// combination's SQL names its table by ID.
	Name       string `json:"name,omitempty"`
	Datasource string `json:"datasource"`
	Dialect    string `json:"dialect"`
	Intent     string `json:"intent"`
	// Plan and SQL are left out of the JSON when they are the result's
	// own (a single sub-query; Result.MarshalJSON).
	Plan *planast.Query `json:"plan,omitempty"`
	SQL  string         `json:"sql,omitempty"`
	// PlanSource is "llm" (a planner call, live or replayed), "cache",
	// "verified" or "supplied".
	PlanSource string `json:"plan_source"`
	Reasoning  string `json:"reasoning,omitempty"`
	// Attempts counts planner calls including repairs.
	Attempts  int  `json:"attempts"`
	RowCount  int  `json:"row_count"`
	Truncated bool `json:"truncated"`
	// VerifiedQuery and Params name the verified query that answered
	// (plan_source "verified") and the typed values bound to it.
	VerifiedQuery string         `json:"verified_query,omitempty"`
	Params        map[string]any `json:"params,omitempty"`
	// Error is set when this sub-query failed while others answered.
	Error string `json:"error,omitempty"`
	// Definitions lists the semantic layer's metrics and filters the plan
	// referenced by name (engine/semantic), in order of first use; Plan
	// and SQL hold their expansions.
	Definitions []planast.Used `json:"definitions,omitempty"`
}

// Timings are wall-clock milliseconds per step, rounded to microseconds.
// They are the only part of a Result (with TraceID) that differs between
// two runs on the same inputs and recordings.
type Timings struct {
	Resolve  float64 `json:"resolve_ms"`
	Retrieve float64 `json:"retrieve_ms"`
	Plan     float64 `json:"plan_ms"`
	Render   float64 `json:"render_ms"`
	// Execute is the query's time; for a scaled answer, the candidates'
	// queries (inside Plan, as Model is).
	Execute float64 `json:"execute_ms"`
	Answer  float64 `json:"answer_ms"`
	// Model is the time spent waiting for model calls (inside Plan).
	Model float64 `json:"model_ms"`
	Total float64 `json:"total_ms"`
}

// Overhead is the engine's own time: total minus model and execution.
func (t Timings) Overhead() float64 { return t.Total - t.Model - t.Execute }

// MS is d in milliseconds, rounded to microseconds.
func MS(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// Stopwatch times consecutive steps.
type Stopwatch struct {
	start, last time.Time
}

// NewStopwatch starts a stopwatch now.
func NewStopwatch() *Stopwatch {
	now := time.Now()
	return &Stopwatch{start: now, last: now}
}

// Lap returns the milliseconds since the previous lap.
func (s *Stopwatch) Lap() float64 {
	now := time.Now()
	d := now.Sub(s.last)
	s.last = now
	return MS(d)
}

// Total returns the milliseconds since the start.
func (s *Stopwatch) Total() float64 { return MS(time.Since(s.start)) }

// Attempt is one refused planning attempt and why: the typed issues that
// sent it back to the planner.
type Attempt struct {
	Attempt int             `json:"attempt"`
	Issues  []planast.Issue `json:"issues"`
}
