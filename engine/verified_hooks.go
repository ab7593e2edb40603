package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// verifiedInput describes a verified query for the hooks: the stored
// tables and columns it reads ("ds.schema.table[.column]", see
// curated.Query.Reads) and plan_source "verified". It has SQL, no plan.
func verifiedInput(ds *datasource, question string, q *curated.Query) hooks.Input {
	in := hooks.Input{Question: question, Datasources: []string{ds.spec.ID}, PlanSource: "verified"}
	tables, columns := q.Reads()
	for _, t := range tables {
		in.Tables = append(in.Tables, ds.spec.ID+"."+t)
	}
	for _, c := range columns {
		in.ReadColumns = append(in.ReadColumns, ds.spec.ID+"."+c)
	}
	return in
}

// verifiedGate passes a verified query through the after_planning and
// before_execution hooks just before it runs (curated.Run calls it). A
// verified query is human-written SQL, not a plan, so a hook that would
// change its plan, or require an approval (which holds plans), refuses it:
// fail closed, never run unchanged.
func (e *Engine) verifiedGate(ctx context.Context, ds *datasource, question string, tr *traceRec) curated.Gate {
	return func(q *curated.Query, sql string) error {
		in := verifiedInput(ds, question, q)
		out, err := e.hook(ctx, hooks.AfterPlanning, tr, in)
		if err != nil {
			return err
		}
		if out.Plan != nil {
			return Errorf(CodeRefusedByRule, "ask the question in words: a generated plan can be changed by the rule",
				"a rule changes the plan of this request, and verified query %s has SQL, not a plan", q.ID)
		}
		in.SQL = sql
		out, err = e.hook(ctx, hooks.BeforeExecution, tr, in)
		if err != nil {
			return err
		}
		if out.NeedsApproval {
			return errVerifiedNeedsApproval
		}
		return nil
	}
}

// errVerifiedNeedsApproval: a rule requires approval, and approvals hold
// plans, not verified queries. By name it refuses; in ask the question is
// planned instead, and that plan stops for approval like any other.
var errVerifiedNeedsApproval = Errorf(CodeRefusedByRule, "ask the question in words (ask): its plan can be sent for approval",
	"a rule requires approval for this request, and approvals hold plans, not verified queries")

// verifiedResultHooks runs the after_execution and after_answer hooks
// (allow or deny) over a verified query's result: its shape and answer,
// never its rows.
func (e *Engine) verifiedResultHooks(ctx context.Context, ds *datasource, question string, q *curated.Query, res *Result, tr *traceRec) error {
	in := verifiedInput(ds, question, q)
	in.SQL, in.Columns, in.RowCount, in.Truncated = res.SQL, res.Columns, res.RowCount, res.Truncated
	if _, err := e.hook(ctx, hooks.AfterExecution, tr, in); err != nil {
		return err
	}
	in.Answer = res.Answer
	_, err := e.hook(ctx, hooks.AfterAnswer, tr, in)
	return err
}

// refusedByRule reports whether err is a rule's refusal or an approval
// stop: those end the request (fail closed), they never fall back to
// another path.
func refusedByRule(err error) bool { return fault.RefusedByRule(err) }
