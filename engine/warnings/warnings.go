package warnings

import (
	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Of lists the warnings a result of rows rows earns from its plan, in
// order: ties, then (when empty) the date ranges, then the filters.
func Of(snap *schema.Snapshot, dialect string, plan *planast.Query, rows int) []string {
	var out []string
	if w := Ties(plan, rows); w != "" {
		out = append(out, w)
	}
	if rows == 0 {
		// cheap: the plan and the profile in the snapshot, no query
		out = append(out, emptyrange.Warnings(snap, plan)...)
	}
	return append(out, Filters(snap, dialect, plan, rows)...)
}
