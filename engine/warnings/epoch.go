package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// epochUnits are the warnings on FROM_EPOCH_SECONDS of a column whose
// greatest profiled value reads as Unix milliseconds or microseconds
// (planast.UnixTime), past year 9999 as seconds: exports write Unix
// times in milliseconds (13 digits) or microseconds (16), which the
// function reads as NULL, every one of them, without a sign in the rows.
// The warning names the division that reads them.
func epochUnits(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || f.Name != "FROM_EPOCH_SECONDS" || len(f.Args) != 1 {
				return
			}
			ref, ok := f.Args[0].(*planast.Column)
			if !ok {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || c.Profile == nil || seen[c] {
				return
			}
			_, unit, per, ok := planast.UnixTime(c.Profile.Max)
			if !ok || unit == "seconds" {
				return
			}
			seen[c] = true
			out = append(out, fmt.Sprintf("FROM_EPOCH_SECONDS(%s) reads a number past year 9999 as NULL, and %q holds such numbers (up to %s): if they are %s since 1970, read them as FROM_EPOCH_SECONDS(%s%s)",
				c.Name, c.Name, example(c.Profile.Max, c.Type), unit, c.Name, per))
		})
	})
	return out
}
