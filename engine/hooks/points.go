package hooks

import (
	"encoding/json"
	"slices"
)

// Point names a place in the pipeline where hooks run.
type Point string

// The hook points, in pipeline order.
const (
	BeforeRun       Point = "before_run"       // the question, before anything else
	AfterResolution Point = "after_resolution" // the datasource set, before any model call
	AfterPlanning   Point = "after_planning"   // the validated plan, before rendering
	BeforeExecution Point = "before_execution" // the rendered plan, before the database sees it
	AfterExecution  Point = "after_execution"  // row count and columns (never rows)
	AfterAnswer     Point = "after_answer"     // the answer text, before the caller sees it
)

// Points lists every hook point in pipeline order.
var Points = []Point{BeforeRun, AfterResolution, AfterPlanning, BeforeExecution, AfterExecution, AfterAnswer}

// Action is what a hook decides.
type Action string

// Actions. Which a point accepts is fixed by Allowed.
const (
	Allow           Action = "allow"
	Deny            Action = "deny"
	Rewrite         Action = "rewrite"          // replace the question (before_run)
	Narrow          Action = "narrow"           // keep a subset of the datasources (after_resolution)
	Modify          Action = "modify"           // replace the plan, validated again (after_planning)
	RequireApproval Action = "require_approval" // stop until an approver agrees (before_execution)
)

// Allowed is the fixed table of decisions per point. A decision outside
// it is treated as a deny (fail closed); no configuration changes it.
var Allowed = map[Point][]Action{
	BeforeRun:       {Allow, Deny, Rewrite},
	AfterResolution: {Allow, Deny, Narrow},
	AfterPlanning:   {Allow, Deny, Modify},
	BeforeExecution: {Allow, Deny, RequireApproval},
	AfterExecution:  {Allow, Deny},
	AfterAnswer:     {Allow, Deny},
}

// Permits reports whether point p accepts action a.
func Permits(p Point, a Action) bool { return slices.Contains(Allowed[p], a) }

// Valid reports whether p is one of Points.
func (p Point) Valid() bool { return slices.Contains(Points, p) }

// Input is what a hook is handed at a point; external hooks receive it as
// the JSON request body. It never holds result rows. Every hook gets its
// own deep copy, so changing it changes nothing in the run.
type Input struct {
	Point Point  `json:"point"`
	RunID string `json:"run_id"`
	// Time is the run's wall-clock time (RFC 3339, UTC), for time windows.
	Time  string   `json:"time"`
	User  string   `json:"user,omitempty"`
	Roles []string `json:"roles,omitempty"`
	// Question is the question as the caller asked it (after any rewrite
	// by an earlier before_run hook).
	Question string `json:"question"`
	// Datasources are the candidate datasources (after_resolution) or the
	// one the run uses (later points).
	Datasources []string `json:"datasources,omitempty"`
	// Plan is the validated plan's canonical JSON (after_planning onward).
	Plan json.RawMessage `json:"plan,omitempty"`
	// Tables are the stored tables the plan reads, "datasource.schema.table".
	Tables []string `json:"tables,omitempty"`
	// ReadColumns are the stored columns the plan reads,
	// "datasource.schema.table.column".
	ReadColumns []string `json:"read_columns,omitempty"`
	// PlanSource is llm, cache, verified, supplied or approved.
	PlanSource string `json:"plan_source,omitempty"`
	// SQL is the rendered statement (before_execution onward).
	SQL string `json:"sql,omitempty"`
	// Columns, RowCount and Truncated describe the result (after_execution onward).
	Columns   []string `json:"columns,omitempty"`
	RowCount  int      `json:"row_count,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
	// Answer is the answer text (after_answer).
	Answer string `json:"answer,omitempty"`
}

// clone returns a deep copy of in.
func (in Input) clone() Input {
	out := in
	out.Roles = slices.Clone(in.Roles)
	out.Datasources = slices.Clone(in.Datasources)
	out.Plan = slices.Clone(in.Plan)
	out.Tables = slices.Clone(in.Tables)
	out.ReadColumns = slices.Clone(in.ReadColumns)
	out.Columns = slices.Clone(in.Columns)
	return out
}

// Decision is a hook's answer; external hooks return it as JSON, e.g.
// {"decision": "deny", "reason": "salaries are off limits"}.
type Decision struct {
	Action Action `json:"decision"`
	// Reason is for the audit log and the operator; it never reaches the
	// caller.
	Reason string `json:"reason,omitempty"`
	// Question replaces the question (rewrite).
	Question string `json:"question,omitempty"`
	// Datasources is the narrowed set (narrow): a non-empty subset of the
	// input's.
	Datasources []string `json:"datasources,omitempty"`
	// Plan is the replacement plan (modify); the engine validates it for
	// the caller like any other plan.
	Plan json.RawMessage `json:"plan,omitempty"`
}
