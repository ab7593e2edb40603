package events

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Event is one catalogued event value. Name is its catalogue name.
type Event interface{ EventName() string }

// The catalogued events. None carries result rows, sample values, bound
// arguments or secrets: counts, names, codes and durations only.
type (
	// RunStarted: a question or plan entered the engine.
	RunStarted struct {
		RunID string `json:"run_id"`
		Kind  string `json:"kind"` // ask, run_plan, approved
		User  string `json:"user,omitempty"`
	}
	// RunFinished: a run ended (one per run; the audit log's line).
	RunFinished struct {
		RunID      string   `json:"run_id"`
		Kind       string   `json:"kind"`
		User       string   `json:"user,omitempty"`
		Roles      []string `json:"roles,omitempty"`
		Datasource string   `json:"datasource,omitempty"`
		Status     string   `json:"status"` // ok, error, needs_approval
		Code       string   `json:"code,omitempty"`
		PlanSource string   `json:"plan_source,omitempty"`
		RowCount   int      `json:"row_count"`
		Truncated  bool     `json:"truncated"`
		DurationMS float64  `json:"duration_ms"`
		ApprovalID string   `json:"approval_id,omitempty"`
	}
	// StepStarted: a pipeline step began.
	StepStarted struct {
		RunID string `json:"run_id"`
		Step  string `json:"step"`
	}
	// StepFinished: a pipeline step ended.
	StepFinished struct {
		RunID      string  `json:"run_id"`
		Step       string  `json:"step"`
		DurationMS float64 `json:"duration_ms"`
	}
	// ModelCall: one call to a model provider.
	ModelCall struct {
		RunID        string  `json:"run_id"`
		Step         string  `json:"step"`
		Provider     string  `json:"provider,omitempty"`
		Model        string  `json:"model,omitempty"`
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		DurationMS   float64 `json:"duration_ms"`
		Failed       bool    `json:"failed"`
	}
	// ValidationFailed: a plan was refused by the validator.
	ValidationFailed struct {
		RunID      string `json:"run_id"`
		Datasource string `json:"datasource"`
		Attempt    int    `json:"attempt"`
		Issues     int    `json:"issues"`
		FirstCode  string `json:"first_code"`
	}
	// AccessDenied: scope refused the caller something.
	AccessDenied struct {
		RunID      string `json:"run_id"`
		Datasource string `json:"datasource,omitempty"`
		Stage      string `json:"stage"`
	}
	// CacheHit: the plan cache answered the planning step.
	CacheHit struct {
		RunID      string `json:"run_id"`
		Datasource string `json:"datasource"`
	}
	// HookDecision: one hook decided at one point.
	HookDecision struct {
		RunID    string `json:"run_id"`
		Point    string `json:"point"`
		Hook     string `json:"hook"`
		Decision string `json:"decision"`
		Reason   string `json:"reason,omitempty"`
		Failed   bool   `json:"failed"`
	}
	// ApprovalDecided: an approver approved or rejected a pending run.
	ApprovalDecided struct {
		ApprovalID string `json:"approval_id"`
		Approver   string `json:"approver"`
		Approved   bool   `json:"approved"`
	}
)

// Event names.
const (
	NameRunStarted       = "run.started"
	NameRunFinished      = "run.finished"
	NameStepStarted      = "step.started"
	NameStepFinished     = "step.finished"
	NameModelCall        = "model.call"
	NameValidationFailed = "validation.failed"
	NameAccessDenied     = "access.denied"
	NameCacheHit         = "cache.hit"
	NameHookDecision     = "hook.decision"
	NameApprovalDecided  = "approval.decided"
)

func (RunStarted) EventName() string       { return NameRunStarted }
func (RunFinished) EventName() string      { return NameRunFinished }
func (StepStarted) EventName() string      { return NameStepStarted }
func (StepFinished) EventName() string     { return NameStepFinished }
func (ModelCall) EventName() string        { return NameModelCall }
func (ValidationFailed) EventName() string { return NameValidationFailed }
func (AccessDenied) EventName() string     { return NameAccessDenied }
func (CacheHit) EventName() string         { return NameCacheHit }
func (HookDecision) EventName() string     { return NameHookDecision }
func (ApprovalDecided) EventName() string  { return NameApprovalDecided }

// Spec is one catalogue entry: the event's Go type, the exact JSON fields
// it may carry, and whether callers may see it in their progress stream.
type Spec struct {
	Type       reflect.Type
	Fields     []string
	CallerSafe bool
}

// Catalogue is every event the engine may publish. Publishing anything
// else, or a type whose JSON fields differ from Fields, is refused.
var Catalogue = map[string]Spec{
	NameRunStarted:       {reflect.TypeFor[RunStarted](), []string{"run_id", "kind", "user"}, true},
	NameRunFinished:      {reflect.TypeFor[RunFinished](), []string{"run_id", "kind", "user", "roles", "datasource", "status", "code", "plan_source", "row_count", "truncated", "duration_ms", "approval_id"}, true},
	NameStepStarted:      {reflect.TypeFor[StepStarted](), []string{"run_id", "step"}, true},
	NameStepFinished:     {reflect.TypeFor[StepFinished](), []string{"run_id", "step", "duration_ms"}, true},
	NameModelCall:        {reflect.TypeFor[ModelCall](), []string{"run_id", "step", "provider", "model", "input_tokens", "output_tokens", "duration_ms", "failed"}, false},
	NameValidationFailed: {reflect.TypeFor[ValidationFailed](), []string{"run_id", "datasource", "attempt", "issues", "first_code"}, false},
	NameAccessDenied:     {reflect.TypeFor[AccessDenied](), []string{"run_id", "datasource", "stage"}, false},
	NameCacheHit:         {reflect.TypeFor[CacheHit](), []string{"run_id", "datasource"}, false},
	NameHookDecision:     {reflect.TypeFor[HookDecision](), []string{"run_id", "point", "hook", "decision", "reason", "failed"}, false},
	NameApprovalDecided:  {reflect.TypeFor[ApprovalDecided](), []string{"approval_id", "approver", "approved"}, false},
}

// JSONFields lists the JSON names of t's exported fields in order.
func JSONFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag := f.Tag.Get("json"); tag != "" {
			name, _, _ = strings.Cut(tag, ",")
		}
		out = append(out, name)
	}
	return out
}

// fields memoises JSONFields per type: a type's fields are fixed, and
// every published event is checked.
var fields sync.Map // reflect.Type → []string

func fieldsOf(t reflect.Type) []string {
	if f, ok := fields.Load(t); ok {
		return f.([]string)
	}
	f := JSONFields(t)
	fields.Store(t, f)
	return f
}

// check reports why e may not be published, or "".
func check(e Event) string {
	spec, ok := Catalogue[e.EventName()]
	if !ok {
		return "event " + e.EventName() + " is not catalogued"
	}
	t := reflect.TypeOf(e)
	if t != spec.Type {
		return "event " + e.EventName() + " has type " + t.String() + ", catalogued " + spec.Type.String()
	}
	if !slices.Equal(fieldsOf(t), spec.Fields) {
		return "event " + e.EventName() + " fields differ from the catalogue"
	}
	return ""
}
