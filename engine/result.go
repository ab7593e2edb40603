package engine

import (
	"encoding/json"

	"github.com/nl2sql/nl2sql/planast"
)

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
	// sub-query's own plan and SQL are in SubQueries.
	SQL        string         `json:"sql"`
	Plan       *planast.Query `json:"plan"`
	SubQueries []SubQuery     `json:"sub_queries"`
	Warnings   []string       `json:"warnings"`
	Usage      Usage          `json:"usage"`
	// Scaling is what test-time scaling did (candidates, buckets, selection,
	// usage per stage); absent when scaling is off.
	Scaling *ScaleReport `json:"scaling,omitempty"`
	// Timings and TraceID differ between runs; everything else is
	// byte-identical for the same inputs and recordings.
	Timings Timings `json:"timings"`
	TraceID string  `json:"trace_id"`
	// HostPlan, when set, makes this the plan-it-yourself result of a
	// question no planner answered (engine/hostplan): its JSON is the
	// HostPlan's, and the fields above other than Question and TraceID
	// are empty.
	HostPlan *HostPlan `json:"-"`
}

// MarshalJSON writes the result with its kind first: "answer", or the
// HostPlan (kind "plan_it_yourself") when set.
func (r Result) MarshalJSON() ([]byte, error) {
	if r.HostPlan != nil {
		return json.Marshal(r.HostPlan)
	}
	type plain Result
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

func (u *Usage) add(o Usage) {
	u.ModelCalls += o.ModelCalls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.PlanCacheHits += o.PlanCacheHits
}

// SubQuery is one datasource query of a result.
type SubQuery struct {
	// ID is a content hash of the datasource and the intent: stable across runs.
	ID         string         `json:"id"`
	Datasource string         `json:"datasource"`
	Dialect    string         `json:"dialect"`
	Intent     string         `json:"intent"`
	Plan       *planast.Query `json:"plan"`
	SQL        string         `json:"sql"`
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
