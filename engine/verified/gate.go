package verified

import (
	"context"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// verifiedInput describes a verified query for the hooks: the stored
// tables and columns it reads ("ds.schema.table[.column]", see
// curated.Query.Reads) and plan_source "verified". It has SQL, no plan.
func verifiedInput(ds string, question string, q *curated.Query) hooks.Input {
	in := hooks.Input{Question: question, Datasources: []string{ds}, PlanSource: "verified"}
	tables, columns := q.Reads()
	for _, t := range tables {
		in.Tables = append(in.Tables, ds+"."+t)
	}
	for _, c := range columns {
		in.ReadColumns = append(in.ReadColumns, ds+"."+c)
	}
	return in
}

// Hook runs the rules of one hook point over an input: the pipeline's hook
// step, with its trace and events.
type Hook func(ctx context.Context, p hooks.Point, in hooks.Input) (hooks.Outcome, error)

// Gate passes a verified query through the after_planning and
// before_execution hooks just before it runs (curated.Run calls it). A
// verified query is human-written SQL, not a plan, so a hook that would
// change its plan, or require an approval (which holds plans), refuses it:
// fail closed, never run unchanged.
func Gate(ctx context.Context, hook Hook, ds, question string) curated.Gate {
	return func(q *curated.Query, sql string) error {
		in := verifiedInput(ds, question, q)
		out, err := hook(ctx, hooks.AfterPlanning, in)
		if err != nil {
			return err
		}
		if out.Plan != nil {
			return fault.Errorf(fault.CodeRefusedByRule, "ask the question in words: a generated plan can be changed by the rule",
				"a rule changes the plan of this request, and verified query %s has SQL, not a plan", q.ID)
		}
		in.SQL = sql
		out, err = hook(ctx, hooks.BeforeExecution, in)
		if err != nil {
			return err
		}
		if out.NeedsApproval {
			return ErrNeedsApproval
		}
		return nil
	}
}

// ErrNeedsApproval: a rule requires approval, and approvals hold
// plans, not verified queries. By name it refuses; in ask the question is
// planned instead, and that plan stops for approval like any other.
var ErrNeedsApproval = fault.Errorf(fault.CodeRefusedByRule, "ask the question in words (ask): its plan can be sent for approval",
	"a rule requires approval for this request, and approvals hold plans, not verified queries")

// Shape is what the result hooks see of a verified query's result: its
// shape and answer, never its rows.
type Shape struct {
	SQL       string
	Columns   []string
	RowCount  int
	Truncated bool
	Answer    string
}

// ResultHooks runs the after_execution and after_answer hooks (allow or
// deny) over a verified query's result.
func ResultHooks(ctx context.Context, hook Hook, ds, question string, q *curated.Query, res Shape) error {
	in := verifiedInput(ds, question, q)
	in.SQL, in.Columns, in.RowCount, in.Truncated = res.SQL, res.Columns, res.RowCount, res.Truncated
	if _, err := hook(ctx, hooks.AfterExecution, in); err != nil {
		return err
	}
	in.Answer = res.Answer
	_, err := hook(ctx, hooks.AfterAnswer, in)
	return err
}
