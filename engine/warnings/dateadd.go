package warnings

import (
	"github.com/nl2sql/nl2sql/planast"
)

// dateAddTimes warns once when DATE_ADD shifts a timestamp: it gives a
// date on every engine, so the time of day is gone, and "a day after
// 23:59:59" was one second later, not 86,400, with nothing in the rows to
// say why.
func dateAddTimes(plan *planast.Query) []string {
	found := false
	planast.Inspect(plan, func(n planast.Node) bool {
		if f, ok := n.(*planast.Func); ok && f.Name == "DATE_ADD" && f.Temporal == planast.TypeTimestamp {
			found = true
		}
		return !found
	})
	if !found {
		return nil
	}
	return []string{"DATE_ADD of a timestamp gives a date: the time of day is dropped (2024-12-31 23:59:59 plus 1 day is 2025-01-01), so compare or subtract it as a day, not an instant"}
}
