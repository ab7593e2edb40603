package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// testRecords names a flag for test or internal records
// (owners.is_test_account: schemactx.TestFlag) on a table an
// aggregating plan reads without ever reading the flag: 60 QA accounts
// carried 42% of a year's invoiced amount, and nothing in the result said
// they were in it. The warning gives the filter that leaves them out; a
// plan that reads the flag anywhere (to filter, group or show it) decided
// already.
func testRecords(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []string {
	if !aggregating(plan) {
		return nil
	}
	read := columns()
	var out []string
	var parents []parentFlag
	direct, walked := map[string]bool{}, map[string]bool{}
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			if t, ok := snap.Lookup(f.Schema, f.Table); ok && f.Subquery == nil {
				direct[t.Schema+"."+t.Name] = true
			}
		}
	})
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			t, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok {
				continue
			}
			// a table read in several queries is walked once
			if key := t.Schema + "." + t.Name; !walked[key] {
				walked[key] = true
				parents = append(parents, flaggedParents(snap, t, direct, read)...)
			}
			for _, c := range t.Columns {
				marked, unmarked, ok := unreadFlag(&c, read)
				if !ok {
					continue
				}
				w := fmt.Sprintf(`%s.%s %s%s, and this plan never reads it: their rows count in the result; if they should not, add %s to the filters with "and"`,
					t.Name, c.Name, schemactx.TestFlagNote(marked), columnNote(&c), unmarkedFilter(f.Alias, &c, marked, unmarked))
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	})
	return append(out, parentWarnings(parents)...)
}

// columnNote is " (its note: "…")" for a column with a comment, else "":
// the schema's own words on which values are real records ("only
// 'patient' rows are real customers") are read by whoever writes the
// filter, where a rule that parsed them would guess.
func columnNote(c *schema.Column) string {
	if c.Comment == "" {
		return ""
	}
	return fmt.Sprintf(" (its note: %q)", planast.Truncate(c.Comment, 200))
}

// parentFlag is a flag of test or internal records on parent, a table
// the rows of child belong to through foreign keys (path), which the plan
// never reads (flaggedParents).
type parentFlag struct {
	child, path string
	parent      *schema.Table
	col         string
	marked      any
}

// parentWarnings says each flagged parent once, with every table read
// that belongs to it and every flag it has: a plan over invoices, their
// lines and payments, all belonging to accounts flagged two ways, was
// told so in six near-alike paragraphs that buried the other warnings.
func parentWarnings(flags []parentFlag) []string {
	var order []*schema.Table
	children, paths, cols, marks := map[*schema.Table][]string{}, map[*schema.Table][]string{}, map[*schema.Table][]string{}, map[*schema.Table][]string{}
	for _, f := range flags {
		p := f.parent
		if _, ok := paths[p]; !ok {
			order = append(order, p)
		}
		if !slices.Contains(children[p], f.child) {
			children[p] = append(children[p], f.child)
		}
		if !slices.Contains(paths[p], f.path) {
			paths[p] = append(paths[p], f.path)
		}
		if !slices.Contains(cols[p], f.col) {
			cols[p] = append(cols[p], f.col)
			marks[p] = append(marks[p], f.col+" "+schemactx.TestFlagMarks(f.marked))
		}
	}
	out := make([]string, 0, len(order))
	for _, p := range order {
		it := "it"
		if len(cols[p]) > 1 {
			it = "them"
		}
		out = append(out, fmt.Sprintf("each row of %s belongs to one of %s (%s), whose %s: %s, and this plan never reads %s: the rows of test records count in the result; if they should not, join %s and filter on %s",
			andList(children[p]), p.Name, strings.Join(paths[p], "; "), strings.Join(marks[p], ", and whose "), schemactx.TestRecordsChoice, it, p.Name, andList(cols[p])))
	}
	return out
}

// andList joins names as a sentence lists them: "a", "a and b", "a, b
// and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// readColumns gives the names (lower case) of the columns plan reads
// anywhere, walked on the first call and kept: a plan that filters, groups
// or shows a flag decided already. testRecords and deletedRows share one.
func readColumns(plan *planast.Query) func() map[string]bool {
	var read map[string]bool
	return func() map[string]bool {
		if read == nil {
			read = map[string]bool{}
			eachQuery(plan, func(q *planast.Query) {
				inspectQuery(q, func(e planast.Expr) {
					if c, ok := e.(*planast.Column); ok {
						read[strings.ToLower(c.Column)] = true
					}
				})
			})
		}
		return read
	}
}

// unmarkedFilter is the plan JSON of a filter that keeps the rows column c
// (of the source alias) does not mark: c is NULL, for a date or timestamp
// set on marked rows (marked nil); else c equals the unmarked value, or
// differs from marked (or is NULL, when it holds NULLs).
func unmarkedFilter(alias string, c *schema.Column, marked, unmarked any) string {
	col := fmt.Sprintf(`{"kind": "column", "table": %s, "column": %s}`, jsonText(alias), jsonText(c.Name))
	if marked == nil {
		return fmt.Sprintf(`{"kind": "is_null", "expr": %s}`, col)
	}
	m, _ := planast.JSON(marked)
	filter := fmt.Sprintf(`{"kind": "binary", "op": "!=", "left": %s, "right": {"kind": "literal", "value": %s}}`, col, m)
	if list, several := marked.([]any); several {
		// every spelling of a marked row ('Y', 'yes', '1', 'true')
		lits := make([]string, len(list))
		for i, v := range list {
			j, _ := planast.JSON(v)
			lits[i] = fmt.Sprintf(`{"kind": "literal", "value": %s}`, j)
		}
		filter = fmt.Sprintf(`{"kind": "in", "expr": %s, "list": [%s], "negated": true}`, col, strings.Join(lits, ", "))
	}
	if _, several := unmarked.([]any); unmarked != nil && !several && c.Profile.NullFraction == 0 {
		u, _ := planast.JSON(unmarked)
		return fmt.Sprintf(`{"kind": "binary", "op": "=", "left": %s, "right": {"kind": "literal", "value": %s}}`, col, u)
	} else if c.Profile.NullFraction > 0 {
		return fmt.Sprintf(`{"kind": "binary", "op": "or", "left": {"kind": "is_null", "expr": %s}, "right": %s}`, col, filter)
	}
	return filter
}

// aggregating reports whether any query of plan groups or aggregates:
// what a figure is made of, where test records change the answer.
func aggregating(plan *planast.Query) bool {
	aggregates := false
	eachQuery(plan, func(q *planast.Query) {
		aggregates = aggregates || len(q.GroupBy) > 0 || slices.ContainsFunc(q.Select, func(it planast.SelectItem) bool { return planast.ContainsAggregate(it.Expr) })
	})
	return aggregates
}

// deletedRows names a column marking rows deleted in place
// (appointments.deleted_at, is_void: schemactx.DeletedMark) on a table a
// plan reads without ever reading the column: 20 soft-deleted
// appointments and 2 merged patients counted in every figure, and nothing
// said they were there. The warning gives the filter that leaves them
// out; a plan that reads the column anywhere decided already. A table
// joined by its key to the rows the plan counts (a listing to its
// bookings) is not one: a booking of a listing removed since happened,
// and leaving it out, as the warning said, cut the figure.
func deletedRows(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			t, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok || joinedByKey(q, f.Alias, t) {
				continue
			}
			for i := range t.Columns {
				c := &t.Columns[i]
				marked, unmarked, ok := schemactx.DeletedMark(c)
				if !ok {
					continue
				}
				if columns()[strings.ToLower(c.Name)] { // walked only once a table has such a column
					continue
				}
				w := fmt.Sprintf(`%s.%s %s; this plan never reads it, so those rows count in the result (business figures usually leave them out); if they should not, add %s to the filters with "and"`,
					t.Name, c.Name, schemactx.DeletedMarks(c, marked), unmarkedFilter(f.Alias, c, marked, unmarked))
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	})
	return out
}

// joinedByKey reports whether q joins alias (table t) to another of its
// sources on t's one-column primary key: each row of the other meets one
// row of t, which describes it.
func joinedByKey(q *planast.Query, alias string, t *schema.Table) bool {
	if len(t.PrimaryKey) != 1 {
		return false
	}
	key := t.PrimaryKey[0]
	for _, j := range q.Joins {
		for _, p := range j.On {
			if j.Right == alias && j.Left != alias && strings.EqualFold(p.RightColumn, key) ||
				j.Left == alias && j.Right != alias && strings.EqualFold(p.LeftColumn, key) {
				return true
			}
		}
	}
	return false
}

// maxFlagHops bounds the foreign keys followed from a table read to a
// table flagging test records (invoice_lines → invoices → owners).
const maxFlagHops = 3

// flaggedParents says, of table t, each table its rows belong to through
// declared foreign keys (child to parent, each row to one) that flags test
// or internal records the plan never reads: a sum of invoices counted the
// QA accounts' invoices, their flag being on owners, which the plan did
// not join. Tables the plan reads itself (direct) are said of by name.
func flaggedParents(snap *schema.Snapshot, t *schema.Table, direct, read map[string]bool) []parentFlag {
	type step struct {
		t    *schema.Table
		path string
	}
	var out []parentFlag
	seen := map[string]bool{t.Schema + "." + t.Name: true}
	level := []step{{t, t.Name}}
	for range maxFlagHops {
		var next []step
		for _, s := range level {
			for _, fk := range s.t.ForeignKeys {
				p, ok := snap.Lookup(fk.RefSchema, fk.RefTable)
				if !ok {
					continue
				}
				key := p.Schema + "." + p.Name
				if seen[key] {
					continue
				}
				seen[key] = true
				path := fmt.Sprintf("%s.%s → %s", s.path, strings.Join(fk.Columns, ", "), p.Name)
				next = append(next, step{p, path})
				if direct[key] {
					continue
				}
				for _, c := range p.Columns {
					marked, _, ok := unreadFlag(&c, read)
					if !ok {
						continue
					}
					out = append(out, parentFlag{child: t.Name, path: path, parent: p, col: c.Name, marked: marked})
				}
			}
		}
		level = next
	}
	return out
}

// unreadFlag is schemactx.TestFlag of c when the plan reads no column of
// its name (read, lower case): a plan that filters, groups or shows the
// flag anywhere decided already.
func unreadFlag(c *schema.Column, read map[string]bool) (marked, unmarked any, ok bool) {
	if read[strings.ToLower(c.Name)] {
		return nil, nil, false
	}
	return schemactx.TestFlag(c)
}
