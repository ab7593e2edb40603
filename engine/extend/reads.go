package extend

import (
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// PlanReads lists the stored tables and columns a validated plan reads
// ("ds.schema.table[.column]"), as the hooks see them. A column is
// attributed to every stored table its alias names anywhere in the plan
// (over-approximating across subqueries, which only makes rules stricter).
func PlanReads(dsID string, q *planast.Query) (tables, columns []string) {
	aliases := map[string][]string{}
	planast.Inspect(q, func(n planast.Node) bool {
		if qq, ok := n.(*planast.Query); ok {
			for _, f := range qq.From {
				if f.Subquery == nil && f.Schema != "" {
					t := dsID + "." + f.Schema + "." + f.Table
					aliases[f.Alias] = append(aliases[f.Alias], t)
					tables = append(tables, t)
				}
			}
		}
		return true
	})
	planast.Inspect(q, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok {
			for _, t := range aliases[c.Table] {
				columns = append(columns, t+"."+c.Column)
			}
		}
		return true
	})
	slices.Sort(tables)
	slices.Sort(columns)
	return slices.Compact(tables), slices.Compact(columns)
}

// WarnUnmatchedRules logs, when datasource dsID opens, each built-in
// rule's table or column of that datasource that its snapshot lacks: such
// a name (a typo, a dropped table) matches nothing, so the rule protects
// nothing there. `nl2sql doctor` fails on the same names.
func (g Gate) WarnUnmatchedRules(dsID string, snap *schema.Snapshot) {
	for _, nr := range g.Hooks.Rules() {
		var missing []string
		check := func(name string, column bool) {
			parts := strings.Split(name, ".")
			if len(parts) < 3 || parts[0] != dsID {
				return
			}
			t, ok := lookupFold(snap, parts[1], parts[2])
			if ok && column {
				ok = slices.ContainsFunc(t.Columns, func(c schema.Column) bool { return len(parts) == 4 && strings.EqualFold(c.Name, parts[3]) })
			}
			if !ok {
				missing = append(missing, name)
			}
		}
		for _, n := range append(slices.Clone(nr.Rule.DenyTables), nr.Rule.ApprovalTables...) {
			check(n, false)
		}
		for _, n := range nr.Rule.DenyColumns {
			check(n, true)
		}
		if len(missing) > 0 {
			g.Log.Warn("a hook rule names what the datasource lacks, so it matches nothing there (see nl2sql doctor)",
				"hook", nr.Name, "datasource", dsID, "names", strings.Join(missing, ", "))
		}
	}
}

// lookupFold finds a table by schema and name, case aside (as rules match).
func lookupFold(snap *schema.Snapshot, schemaName, table string) (*schema.Table, bool) {
	for i := range snap.Tables {
		t := &snap.Tables[i]
		if strings.EqualFold(t.Schema, schemaName) && strings.EqualFold(t.Name, table) {
			return t, true
		}
	}
	return nil, false
}
