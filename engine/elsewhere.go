package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// elsewhereHint names, for each table plan reads that ds lacks, the other
// datasources the caller may read it in: a host that sent a plan to the
// wrong datasource learns the one to send it to, where "there is no table
// named …" alone leaves it guessing. Only datasources already open are
// looked at (nothing waits for one to open), and only tables the caller
// may read are named; "" when none.
func (e *Engine) elsewhereHint(ctx context.Context, ds *datasource, plan *planast.Query) string {
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
				if f.Table == "" || ctes[strings.ToLower(f.Table)] {
					continue
				}
				if _, ok := ds.snap.Lookup(f.Schema, f.Table); !ok && !containsFold(missing, f.Table) {
					missing = append(missing, f.Table)
				}
			}
		}
		return true
	})
	if len(missing) == 0 {
		return ""
	}
	sc := e.caller(ctx)
	var found []string
	for _, table := range missing {
		var in []string
		for _, id := range sc.Datasources(e.DatasourceIDs()) {
			if id == ds.spec.ID {
				continue
			}
			other, open := e.sources.Ready(id)
			if !open {
				continue
			}
			if t, ok := other.snap.Lookup("", table); ok && sc.AllowTable(id, t.Schema, t.Name) {
				in = append(in, fmt.Sprintf("%q", id))
			}
		}
		if len(in) > 0 {
			found = append(found, fmt.Sprintf("table %q is in datasource %s, not %q", table, strings.Join(in, " and "), ds.spec.ID))
		}
	}
	if len(found) == 0 {
		return ""
	}
	return strings.Join(found, "; ") + `: send the plan with that "datasource" (a plan reads one datasource; ask combines several)`
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
