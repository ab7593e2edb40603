package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// viewHiddenRows names, of each view a plan reads, a table its definition
// reads (schema.Table.Reads) with a column flagging test or internal
// records (schemactx.TestFlag: patients.account_type 'test', 'demo') or
// marking rows deleted in place (schemactx.DeletedMark: deleted_at), when
// the definition never names that column, so neither filters on it nor
// shows it: a count over v_appointment_details counted test accounts and
// deleted patients, while the same count over the tables was warned of
// (testRecords, deletedRows), and a plan over the view has no column to
// filter them by. The warning says how many rows the profile saw, and
// the fix: join the view's key to that table and filter, or compute the
// figure from the tables. As testRecords, a flag of test records is named
// for an aggregating plan alone; a deleted mark for any. A plan that reads
// a column of that name anywhere (it joined the table and filters) decided
// already. The definition is read as text, a name anywhere in it counting
// (a column of that name on another of its tables too): a view that may
// filter is given the benefit of the doubt. One level only: of a view
// reading a view, the inner view's tables are not looked at.
func viewHiddenRows(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []string {
	aggregates := aggregating(plan)
	var out []string
	seen := map[*schema.Table]bool{}
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			v, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok || v.Kind != schema.KindView || seen[v] {
				continue
			}
			seen[v] = true
			_, named, ok := definitionNames(snap, v)
			if !ok {
				continue
			}
			for _, r := range v.Reads {
				t, ok := snap.Lookup(r.Schema, r.Name)
				if !ok || t.Kind == schema.KindView {
					continue
				}
				var marks []hiddenMark
				for i := range t.Columns {
					c := &t.Columns[i]
					name := strings.ToLower(c.Name)
					if named[name] || slices.ContainsFunc(v.Columns, func(vc schema.Column) bool { return strings.EqualFold(vc.Name, c.Name) }) {
						continue // filtered, or shown for the plan to filter
					}
					m := hiddenMark{c: c}
					test := false
					switch m.marked, m.unmarked, test = schemactx.TestFlag(c); {
					case test && aggregates:
						m.note = schemactx.TestFlagNote(m.marked)
					case test:
						continue
					default:
						var deleted bool
						if m.marked, m.unmarked, deleted = schemactx.DeletedMark(c); !deleted {
							continue
						}
						m.note = schemactx.DeletedNote(c, m.marked)
					}
					if !columns()[name] {
						marks = append(marks, m)
					}
				}
				if len(marks) > 0 {
					out = append(out, hiddenRowsWarning(snap, plan, f, v, t, marks))
				}
			}
		}
	})
	return out
}

// hiddenMark is a column c of a table a view reads that flags test
// records or marks rows deleted (marked, unmarked: as TestFlag or
// DeletedMark say) which the view's definition never names; note is what
// the schema says of it.
type hiddenMark struct {
	c                *schema.Column
	marked, unmarked any
	note             string
}

// hiddenRowsWarning says, of view v (source f of plan) and table t it
// reads, the columns marks that the view neither filters on nor shows,
// once: a view over patients flagged two ways was one finding, not two
// paragraphs each with the same join.
func hiddenRowsWarning(snap *schema.Snapshot, plan *planast.Query, f planast.From, v, t *schema.Table, marks []hiddenMark) string {
	var whose, names []string
	for _, m := range marks {
		whose = append(whose, fmt.Sprintf("%s %s (%s)", m.c.Name, m.note, profiledRows(t, m.c, m.marked)))
		names = append(names, m.c.Name)
	}
	return fmt.Sprintf(`view %s reads %s (%s), whose %s, and its definition neither filters on %s nor shows %s: those rows count in the view's figures and in this result, and no column of the view can leave them out; %s`,
		v.Name, t.Name, rowsProfiled(t), strings.Join(whose, ", and whose "), andList(names), pronoun(len(names)), viewRowsFix(snap, plan, f, v, t, marks))
}

// pronoun is "it", or "them" of several.
func pronoun(n int) string {
	if n > 1 {
		return "them"
	}
	return "it"
}

// rowsProfiled says how many rows t held when profiled.
func rowsProfiled(t *schema.Table) string {
	if t.RowCount == nil {
		return "not profiled"
	}
	return fmt.Sprintf("%d rows when profiled", *t.RowCount)
}

// profiledRows says how many rows of t column c marks, as the profile
// saw them: of a time set on them (marked nil), how many hold one; of a
// flag, the profile counts no values.
func profiledRows(t *schema.Table, c *schema.Column, marked any) string {
	if marked != nil || t.RowCount == nil || c.Profile == nil {
		return "the profile does not count them"
	}
	n := *t.RowCount
	return fmt.Sprintf("%d of its %d rows when profiled", int64(float64(n)*(1-c.Profile.NullFraction)+0.5), n)
}

// viewRowsFix is what a plan over view v (source f) does to leave out
// the rows column c of table t marks: join t on the view's column that
// holds t's key (a column of the view named as a foreign key to t of
// one of the tables v reads: patient_id to patients.id), as plan JSON
// with the filter; else compute the figure from the view's tables.
func viewRowsFix(snap *schema.Snapshot, plan *planast.Query, f planast.From, v, t *schema.Table, marks []hiddenMark) string {
	var cols []string
	for _, m := range marks {
		cols = append(cols, t.Name+"."+m.c.Name)
	}
	compute := fmt.Sprintf("compute the figure from the tables %s reads (its definition in describe_schema), filtering %s", v.Name, andList(cols))
	key, ref := "", ""
	for _, r := range v.Reads {
		rt, ok := snap.Lookup(r.Schema, r.Name)
		if !ok {
			continue
		}
		for _, fk := range rt.ForeignKeys {
			p, ok := snap.Lookup(fk.RefSchema, fk.RefTable)
			if ok && p == t && len(fk.Columns) == 1 && len(fk.RefColumns) == 1 &&
				slices.ContainsFunc(v.Columns, func(vc schema.Column) bool { return vc.Name == fk.Columns[0] }) {
				key, ref = fk.Columns[0], fk.RefColumns[0]
			}
		}
	}
	if key == "" {
		return compute
	}
	alias := freshAlias(t.Name, usedAliases(plan))
	schemaName := ""
	if t.Schema != snap.Default() {
		schemaName = t.Schema
	}
	fr, _ := planast.JSON(planast.From{Schema: schemaName, Table: t.Name, Alias: alias})
	j, _ := planast.JSON(planast.Join{Type: planast.JoinInner, Left: f.Alias, Right: alias, On: []planast.OnPair{{LeftColumn: key, RightColumn: ref}}})
	var filters []string
	for _, m := range marks {
		filters = append(filters, unmarkedFilter(alias, m.c, m.marked, m.unmarked))
	}
	return fmt.Sprintf(`if they should not, join the view's %s to %s.%s: add %s to "from" and %s to "joins", then add %s to the filters, each with "and"; or %s`,
		key, t.Name, ref, fr, j, strings.Join(filters, ", "), compute)
}
