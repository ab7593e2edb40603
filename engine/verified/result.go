package verified

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/answer"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/source"
)

// Ran is a verified query that ran, as its Result records it.
type Ran struct {
	Question            string // the result's question: the asker's, or a stand-in naming the query
	Intent              string // the sub-query's intent
	SubID               string // the sub-query's id (a content hash the pipeline computes)
	Datasource, Dialect string
	Query               string         // the verified query's id
	Params              map[string]any // its parameters as bound
	ModelCalls          int            // the parameter-filling call, if one was made
	// CutWarning adds the row-limit warning to a truncated result (Ask's
	// path; a run by id leaves it to its caller).
	CutWarning bool
	TraceID    string
	*curated.Execution
}

// Result is the result of a verified query that ran: its rows and SQL,
// one sub-query with plan_source "verified", and the template answer (a
// verified query never goes to the answer model). The pipeline then runs
// the result hooks over it (ResultHooks with ShapeOf) and fills in the
// timings.
func Result(r Ran) *result.Result {
	rows := r.Execution.Result
	out := &result.Result{
		Question: r.Question, Columns: rows.Columns, ColumnTypes: rows.ColumnTypes, Rows: rows.Rows,
		RowCount: len(rows.Rows), Truncated: rows.Truncated, SQL: r.SQL, Warnings: []string{},
		Usage: result.Usage{ModelCalls: r.ModelCalls},
		SubQueries: []result.SubQuery{{
			ID: r.SubID, Datasource: r.Datasource, Dialect: r.Dialect, Intent: r.Intent,
			SQL: r.SQL, PlanSource: "verified", VerifiedQuery: r.Query, Params: r.Params,
			RowCount: len(rows.Rows), Truncated: rows.Truncated,
		}},
		TraceID: r.TraceID,
	}
	if out.Rows == nil {
		out.Rows = [][]any{}
	}
	if r.CutWarning && rows.Truncated {
		out.Warnings = append(out.Warnings, "the result was cut at the row limit")
	}
	out.Answer = answer.Summarise(answer.RowsOf(out))
	return out
}

// ShapeOf is what the result hooks see of a verified query's result.
func ShapeOf(r *result.Result) Shape {
	return Shape{SQL: r.SQL, Columns: r.Columns, RowCount: r.RowCount, Truncated: r.Truncated, Answer: r.Answer}
}

// Fallback sorts the error of a verified query that matched a question
// but could not answer it: a rule's refusal ends the request (fail
// closed, returned as fatal), except a required approval, which the
// planned path can honour; anything else falls back to planning, with
// reason for the trace and the log.
func Fallback(ctx context.Context, err error) (reason string, fatal error) {
	if ctx.Err() != nil {
		return "", fault.Deadline(ctx, err)
	}
	if fault.RefusedByRule(err) && !errors.Is(err, ErrNeedsApproval) {
		return "", err
	}
	return fmt.Sprintf("a verified query matched but could not answer (%v); the question was planned instead", err), nil
}

// Error maps the error of a verified query run by id to the boundary
// error: curated's codes to the product's, anything else as the
// datasource's error.
func Error(err error, ds string) error {
	var ce *curated.Error
	if errors.As(err, &ce) {
		switch ce.Code {
		case curated.CodeNotFound:
			return &fault.Error{Code: fault.CodeVerifiedNotFound, Msg: ce.Msg, Hint: "list_verified_queries shows the ones you may run", Err: err}
		case curated.CodeParams:
			return &fault.Error{Code: fault.CodeInvalidParams, Msg: ce.Msg, Hint: "check each parameter against the query's param_schema", Err: err}
		case curated.CodeNotAllowed, curated.CodeRowFilter:
			return &fault.Error{Code: fault.CodeAccessDenied, Msg: ce.Msg, Hint: "ask your administrator for access", Err: err}
		}
		return &fault.Error{Code: fault.Code(ce.Code), Msg: ce.Msg, Err: err}
	}
	fe := fault.Source(err, ds)
	if schemaChanged(err) {
		// a verified query's SQL is fixed, not checked against the
		// snapshot: what it names is missing from the database as it is,
		// and the same request would fail alike
		fe.Retryable = false
		fe.Hint = "the verified query names a table or column the database no longer has: its SQL needs updating to the schema; ask the question instead"
	}
	return fe
}

// schemaChanged reports whether err is a statement's failure on a table
// or column the database no longer has (source.SchemaChanged).
func schemaChanged(err error) bool {
	var se *source.Error
	return errors.As(err, &se) && se.SchemaChanged
}
