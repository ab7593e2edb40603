package warnings

import (
	"fmt"
	"maps"
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
// filter is given the benefit of the doubt. Of an aggregating plan, the
// tables the view's tables belong to through foreign keys are looked at
// too (viewFlaggedParents). Of a view reading a view, the inner view's
// tables are not looked at.
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
					switch m.marked, m.unmarked, m.test = schemactx.TestFlag(c); {
					case m.test && aggregates:
						m.note = schemactx.TestFlagNote(m.marked) + kindsSaid(c, m.marked)
					case m.test:
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
			if aggregates {
				out = append(out, viewFlaggedParents(snap, plan, f, v, named, columns())...)
			}
		}
	})
	return out
}

// viewFlaggedParents names, of view v (source f of plan), each table that
// the tables v reads belong to through declared foreign keys
// (flaggedParents: bookings.customer_id → customers), that v does not
// read itself, and that flags test records with a column neither v's
// definition (named) nor the plan (read) names: a sum over a view of
// revenue per location counted the test accounts' bookings, their flag
// being on customers, which the view never joins, and nothing was said.
// The fix joins the view's key to the flagged table along those foreign
// keys, or computes the figure from the tables, naming the joins.
func viewFlaggedParents(snap *schema.Snapshot, plan *planast.Query, f planast.From, v *schema.Table, named, read map[string]bool) []string {
	reads, skip := map[string]bool{}, maps.Clone(read)
	for n := range named {
		skip[n] = true
	}
	var tables []*schema.Table
	for _, r := range v.Reads {
		if t, ok := snap.Lookup(r.Schema, r.Name); ok && t.Kind != schema.KindView {
			reads[t.Schema+"."+t.Name] = true
			tables = append(tables, t)
		}
	}
	var order []*schema.Table
	byParent := map[*schema.Table][]parentFlag{}
	for _, t := range tables {
		for _, pf := range flaggedParents(snap, t, reads, skip) {
			if _, ok := byParent[pf.parent]; !ok {
				order = append(order, pf.parent)
			}
			byParent[pf.parent] = append(byParent[pf.parent], pf)
		}
	}
	var out []string
	for _, p := range order {
		var paths []string
		var marks []hiddenMark
		var routes [][]fkHop
		for _, pf := range byParent[p] {
			if !slices.Contains(paths, pf.path) {
				paths = append(paths, pf.path)
				routes = append(routes, pf.hops)
			}
			if !slices.ContainsFunc(marks, func(m hiddenMark) bool { return m.c == pf.col }) {
				marks = append(marks, hiddenMark{c: pf.col, marked: pf.marked, unmarked: pf.unmarked, note: schemactx.TestFlagNote(pf.marked) + kindsSaid(pf.col, pf.marked), test: true})
			}
		}
		var whose, names []string
		for _, m := range marks {
			whose = append(whose, m.c.Name+" "+m.note)
			names = append(names, m.c.Name)
		}
		out = append(out, fmt.Sprintf(`view %s reads rows that belong to %s (%s), whose %s, and its definition never reads %s: those rows count in the view's figures and in this result, and no column of the view can leave them out; %s`,
			v.Name, p.Name, strings.Join(paths, "; "), strings.Join(whose, ", and whose "), andList(names), viewRowsFix(snap, plan, f, v, p, routes, marks)))
	}
	return out
}

// hiddenMark is a column c of a table a view reads that flags test
// records or marks rows deleted (marked, unmarked: as TestFlag or
// DeletedMark say) which the view's definition never names; note is what
// the schema says of it; test tells a flag of test records.
type hiddenMark struct {
	c                *schema.Column
	marked, unmarked any
	note             string
	test             bool
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
		v.Name, t.Name, rowsProfiled(t), strings.Join(whose, ", and whose "), andList(names), pronoun(len(names)), viewRowsFix(snap, plan, f, v, t, readersOf(snap, v, t), marks))
}

// readersOf are the foreign keys by which the tables view v reads refer
// to t, each a route of one hop, in the order v reads them.
func readersOf(snap *schema.Snapshot, v, t *schema.Table) [][]fkHop {
	var routes [][]fkHop
	for _, r := range v.Reads {
		rt, ok := snap.Lookup(r.Schema, r.Name)
		if !ok {
			continue
		}
		for _, fk := range keysByNulls(rt) {
			if p, ok := snap.Lookup(fk.RefSchema, fk.RefTable); ok && p == t {
				routes = append(routes, []fkHop{{rt, fk}})
			}
		}
	}
	return routes
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
// the rows the columns marks of table t mark: join t along a route of
// foreign keys from the tables v reads (routes, each ending at t) from
// the first hop whose key columns v shows (a column of the view named as
// the foreign key: patient_id to patients.id; customer_id, then
// customers), the fewest joins first, as plan JSON with the filter; else
// compute the figure from the view's tables, joined along the first
// route when t is not one of them. A flag's filter leaves out too the
// rows its note adds (realFilter).
func viewRowsFix(snap *schema.Snapshot, plan *planast.Query, f planast.From, v, t *schema.Table, routes [][]fkHop, marks []hiddenMark) string {
	var cols []string
	said := ""
	for _, m := range marks {
		cols = append(cols, t.Name+"."+m.c.Name)
		if m.test {
			said += flagNoteSaid(t, m.c)
		}
	}
	joined := ""
	if len(routes) > 0 && !slices.ContainsFunc(v.Reads, func(r schema.Relation) bool { rt, ok := snap.Lookup(r.Schema, r.Name); return ok && rt == t }) {
		joined = ", joining " + joinsSaid(routes[0])
	}
	compute := fmt.Sprintf("compute the figure from the tables %s reads (its definition in describe_schema)%s, filtering %s%s", v.Name, joined, andList(cols), said)
	var hops []fkHop
	for _, route := range routes {
		for i, h := range route {
			if shows(v, h.fk.Columns) && (hops == nil || len(route)-i < len(hops)) {
				hops = route[i:]
				break
			}
		}
	}
	if hops == nil {
		return compute
	}
	used := usedAliases(plan)
	left, keys := f.Alias, hops[0].fk.Columns
	var froms, joins []string
	for _, h := range hops {
		p, _ := snap.Lookup(h.fk.RefSchema, h.fk.RefTable)
		alias := freshAlias(p.Name, used)
		schemaName := ""
		if p.Schema != snap.Default() {
			schemaName = p.Schema
		}
		fr, _ := planast.JSON(planast.From{Schema: schemaName, Table: p.Name, Alias: alias})
		var on []planast.OnPair
		for k, c := range h.fk.Columns {
			on = append(on, planast.OnPair{LeftColumn: c, RightColumn: h.fk.RefColumns[k]})
		}
		j, _ := planast.JSON(planast.Join{Type: planast.JoinInner, Left: left, Right: alias, On: on})
		froms, joins = append(froms, string(fr)), append(joins, string(j))
		left = alias
	}
	var filters []string
	for _, m := range marks {
		filter := unmarkedFilter(left, m.c, m.marked, m.unmarked)
		if m.test {
			filter, _ = realFilter(left, t, m.c, m.marked, m.unmarked, "")
		}
		filters = append(filters, filter)
	}
	way := fmt.Sprintf("%s.%s", hops[0].fk.RefTable, strings.Join(hops[0].fk.RefColumns, ", "))
	if len(hops) > 1 {
		way += ", then " + joinsSaid(hops[1:])
	}
	return fmt.Sprintf(`if they should not, join the view's %s to %s: add %s to "from" and %s to "joins", then add %s to the filters, each with "and"; or %s`,
		strings.Join(keys, ", "), way, strings.Join(froms, ", "), strings.Join(joins, ", "), strings.Join(filters, ", "), compute)
}

// shows reports whether view v has a column of each name of cols.
func shows(v *schema.Table, cols []string) bool {
	return len(cols) > 0 && !slices.ContainsFunc(cols, func(c string) bool {
		return !slices.ContainsFunc(v.Columns, func(vc schema.Column) bool { return vc.Name == c })
	})
}

// joinsSaid says a route of foreign keys as joins: "bookings.customer_id
// to customers.customer_id".
func joinsSaid(route []fkHop) string {
	said := make([]string, len(route))
	for i, h := range route {
		said[i] = fmt.Sprintf("%s.%s to %s.%s", h.from.Name, strings.Join(h.fk.Columns, ", "), h.fk.RefTable, strings.Join(h.fk.RefColumns, ", "))
	}
	return strings.Join(said, ", then ")
}
