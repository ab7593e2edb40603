package warnings

import (
	"slices"

	"github.com/nl2sql/nl2sql/planast"
)

// ownRowsCounted reports whether q makes its figures of the rows of
// source alias itself, though it joins alias by its key (joinedByKey,
// which describes the rows of another source): an aggregate's value reads
// one of alias's columns (COUNT(DISTINCT w.ws_id), SUM(w.seats): the
// workspaces are what is counted, deleted ones with them, as they are
// when the plan reads workspaces alone), or every join naming alias keeps
// all its rows (workspaces LEFT JOIN tickets: each workspace is a row of
// the answer). A table joined only to describe the rows counted (its
// region grouped by, its flag filtered on) is not: a ticket of a workspace
// deleted since was still opened.
func ownRowsCounted(q *planast.Query, alias string) bool {
	counted := false
	inspectQuery(q, func(e planast.Expr) {
		if f, ok := e.(*planast.Func); ok && !counted && planast.IsAggregate(f) {
			counted = slices.ContainsFunc(f.Args, func(a planast.Expr) bool { return valueReads(a, alias) })
		}
	})
	return counted || keepsEveryRow(q, alias)
}

// valueReads reports whether e's value reads a column of alias: in a CASE,
// its results do, not its conditions (COUNT(CASE WHEN w.is_internal THEN
// t.id END) counts tickets, chosen by their workspace).
func valueReads(e planast.Expr, alias string) bool {
	hit := false
	planast.Inspect(e, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Query:
			return false
		case *planast.Column:
			hit = hit || x.Table == alias
		case *planast.Case:
			for _, w := range x.Whens {
				hit = hit || valueReads(w.Then, alias)
			}
			hit = hit || x.Else != nil && valueReads(x.Else, alias)
			return false
		}
		return !hit
	})
	return hit
}

// keepsEveryRow reports whether q joins alias and every join naming it
// keeps all of alias's rows: alias is the left of a left join, the right
// of a right join, or either side of a full one.
func keepsEveryRow(q *planast.Query, alias string) bool {
	joined := false
	for _, j := range q.Joins {
		if j.Left != alias && j.Right != alias {
			continue
		}
		joined = true
		keeps := j.Type == planast.JoinFull || j.Type == planast.JoinLeft && j.Left == alias || j.Type == planast.JoinRight && j.Right == alias
		if !keeps {
			return false
		}
	}
	return joined
}
