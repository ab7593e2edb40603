package warnings

import (
	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Of lists the warnings a run earns from its plan, in order: ties, the
// columns read as their type and the text columns whose cast read values
// as NULL (mixedWarnings), then (when its filters matched nothing: no
// rows, or an ungrouped aggregate of nothing such as a count of 0) the
// date ranges, then the keys that pair rows only loosely (keyWarnings),
// then the filters, then the text literals no stored value equals that
// those did not already quote (absentLiterals).
func Of(snap *schema.Snapshot, dialect string, plan *planast.Query, run Run) []string {
	var out []string
	if w := Ties(plan, len(run.Rows)); w != "" {
		out = append(out, w)
	}
	out = append(out, mixedWarnings(snap, plan)...)
	empty := matchedNothing(plan, run.Rows)
	if empty {
		if w := emptyTables(snap, plan); w != "" {
			// the filters are not why: no guess at ranges, case or spelling
			return append(out, append([]string{w}, Filters(snap, dialect, plan, false, nil)...)...)
		}
		// cheap: the plan and the profile in the snapshot, no query
		out = append(out, emptyrange.Warnings(snap, plan)...)
	}
	out = append(out, keyWarnings(snap, plan, run.Stored, empty)...)
	out = append(out, Filters(snap, dialect, plan, empty, run.Stored)...)
	return append(out, absentLiterals(snap, plan, run.Stored, out)...)
}
