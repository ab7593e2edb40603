package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// A grouped plan whose having filter kept no group returns no rows, which
// reads the same as "there is nothing": a host asked for "years with more
// than one performance" cannot tell an empty table from groups that all
// had one. HavingProbe is the query that tells them apart: the plan's
// groups before its having filter, counted, with the least and greatest
// value of what the filter compared (when it compares one value with a
// literal), and HavingWarning says what it found.

// HavingProbe is the probe of plan, or nil when plan is no grouped query
// with a having filter (or combines queries, whose having is per part).
// It is a new plan: validate and run it as the caller, like any other.
func HavingProbe(plan *planast.Query) *planast.Query {
	if plan == nil || plan.Having == nil || len(plan.GroupBy) == 0 || len(plan.SetOps) > 0 {
		return nil
	}
	b, err := planast.JSON(plan)
	if err != nil {
		return nil
	}
	inner, err := planast.Decode(b, planast.DefaultLimits)
	if err != nil {
		return nil
	}
	measured := compared(inner)
	if measured == nil {
		measured = &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}
	}
	with := inner.With
	inner.With, inner.Having, inner.Qualify, inner.OrderBy, inner.Limit, inner.Offset, inner.WithTies, inner.Distinct = nil, nil, nil, nil, nil, nil, false, false
	inner.Select = []planast.SelectItem{{Expr: measured, Alias: "measured"}}
	col := &planast.Column{Table: "g", Column: "measured"}
	return &planast.Query{
		With: with,
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "groups"},
			{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{col}}, Alias: "least"},
			{Expr: &planast.Func{Name: "MAX", Args: []planast.Expr{col}}, Alias: "greatest"},
		},
		From: []planast.From{{Subquery: inner, Alias: "g"}},
	}
}

// compared is the expression q's having compares with a literal, or nil
// (Validate has put an output alias's expression in its place).
func compared(q *planast.Query) planast.Expr {
	b, ok := q.Having.(*planast.Binary)
	if !ok {
		return nil
	}
	switch b.Op {
	case planast.OpEq, planast.OpNe, planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
	default:
		return nil
	}
	if _, lit := b.Right.(*planast.Literal); !lit {
		return nil
	}
	return b.Left
}

// HavingWarning reads the probe's row (groups, least, greatest; the
// probe's column types) for plan.
func HavingWarning(plan *planast.Query, row []any, types []planast.Type) string {
	if len(row) != 3 {
		return ""
	}
	n, _ := row[0].(int64)
	if n == 0 {
		return "no rows matched before grouping either: the where filter or the tables left no row to group"
	}
	w := fmt.Sprintf("no group passed the having filter: there were %d groups before it", n)
	if compared(plan) != nil && row[1] != nil && len(types) == 3 {
		// values by the one rule every rendering uses (349.00 stays 349.00)
		w += fmt.Sprintf(", and what it compares ranged from %s to %s across them", cellfmt.Value(row[1], types[1]), cellfmt.Value(row[2], types[2]))
	}
	return w
}
