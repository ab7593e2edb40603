package traces

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/engine/scale"
	"github.com/nl2sql/nl2sql/index"
)

// Trace records one request for later inspection and replay: the steps
// with their timings, every model call (prompt text and hash, answer), the
// refused attempts, the SQL and the outcome. It holds no secrets: prompts
// carry the schema context and the question, never configuration.
type Trace struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	Question   string    `json:"question"`
	Datasource string    `json:"datasource,omitempty"`
	Today      string    `json:"today"`
	// Retrieved is what retrieval selected for the prompt.
	Retrieved  *index.Selection `json:"retrieved,omitempty"`
	ModelCalls []ModelCall      `json:"model_calls"`
	Rejected   []result.Attempt `json:"rejected_attempts"`
	PlanSource string           `json:"plan_source,omitempty"`
	// VerifiedFallback says why a matching verified query did not answer.
	VerifiedFallback string         `json:"verified_fallback,omitempty"`
	SQL              string         `json:"sql,omitempty"`
	RowCount         int            `json:"row_count"`
	Timings          result.Timings `json:"timings"`
	// Scaling is the test-time scaling report: buckets, agreeing
	// strategies, selection and usage per stage (absent when off).
	Scaling *scale.Report `json:"scaling,omitempty"`
	Error   *Error        `json:"error,omitempty"`
}

// Error is the error a traced request ended with.
type Error struct {
	Code    fault.Code `json:"code"`
	Message string     `json:"message"`
	// Detail is what the operator needs and the caller was not told (a
	// row filter that cannot be applied: its role, table, and the column
	// or attribute at fault); traces are the operator's, never a caller's.
	Detail string `json:"detail,omitempty"`
}

// operatorDetail is an error cause that carries an account for the
// operator beyond what the caller is told (scope.FilterError).
type operatorDetail interface{ OperatorDetail() string }

// Encode is the trace's line in a day file: the error it ended with
// (err, nil when it answered) and every model call's error with
// credentials masked, and empty lists as [] rather than null.
func Encode(t Trace, err error) ([]byte, error) {
	if err != nil {
		ee := fault.AsError(err)
		t.Error = &Error{Code: ee.Code, Message: fault.Redact(ee.Msg)}
		var od operatorDetail
		if errors.As(err, &od) {
			t.Error.Detail = fault.Redact(od.OperatorDetail())
		}
	}
	calls := make([]ModelCall, len(t.ModelCalls)) // the caller's trace keeps its own
	copy(calls, t.ModelCalls)
	for i := range calls {
		calls[i].Error = fault.Redact(calls[i].Error)
	}
	t.ModelCalls = calls
	if t.Rejected == nil {
		t.Rejected = []result.Attempt{}
	}
	return json.Marshal(t)
}

// Read loads a stored trace by id from dir: the day files
// (traces-YYYY-MM-DD.jsonl, newest first), or an ID.json file of the
// earlier one-file-per-trace layout.
func Read(dir, id string) (*Trace, error) {
	if !ValidID(id) {
		return nil, fault.Errorf(fault.CodeInvalidRequest, "trace ids are 32 hex characters, as printed in trace_id", "%q is not a trace id", id)
	}
	b, err := Find(dir, id)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fault.Errorf(fault.CodeInvalidRequest, "traces live under storage.path/traces", "there is no trace %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read trace %s: %w", id, err)
	}
	var t Trace
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("trace %s is malformed: %w", id, err)
	}
	return &t, nil
}
