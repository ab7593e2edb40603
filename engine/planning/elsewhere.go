package planning

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// ElsewhereHint names, for each table plan reads that its datasource (id
// here) lacks, the other datasources that hold it: a host that sent a
// plan to the wrong datasource learns the one to send it to, where
// "there is no table named …" alone leaves it guessing. has reports
// whether the plan's datasource holds a table; holders lists the other
// datasources holding one the caller may read (the caller's access is
// theirs to apply). "" when none.
func ElsewhereHint(plan *planast.Query, here string, has func(schema, table string) bool, holders func(table string) []string) string {
	if plan == nil {
		return ""
	}
	ctes := map[string]bool{}
	var missing []string
	planast.Inspect(plan, func(n planast.Node) bool {
		if q, ok := n.(*planast.Query); ok {
			for _, c := range q.With {
				ctes[strings.ToLower(c.Name)] = true
			}
			for _, f := range q.From {
				if f.Table == "" || ctes[strings.ToLower(f.Table)] || has(f.Schema, f.Table) || containsFold(missing, f.Table) {
					continue
				}
				missing = append(missing, f.Table)
			}
		}
		return true
	})
	var found []string
	for _, table := range missing {
		var in []string
		for _, id := range holders(table) {
			if id != here {
				in = append(in, fmt.Sprintf("%q", id))
			}
		}
		if len(in) > 0 {
			found = append(found, fmt.Sprintf("table %q is in datasource %s, not %q", table, strings.Join(in, " and "), here))
		}
	}
	if len(found) == 0 {
		return ""
	}
	return strings.Join(found, "; ") + `: send the plan with that "datasource" (a plan reads one datasource; run_combined_plan combines plans over several)`
}

// containsFold reports whether xs holds s in any letter case.
func containsFold(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
