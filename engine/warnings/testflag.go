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
	var out []string
	for _, fd := range testFindings(snap, plan, columns) {
		out = append(out, fd.text)
	}
	return out
}

// testFinding is one warning of testRecords (text, as Static words it)
// with what its probe needs (TestFlagProbes), for a flag the plan never
// reads: the query q that reads the flagged table, or a table whose rows
// belong to it, as alias, the foreign keys from there to the flagged
// table (hops: none when alias is it), keep, the plan JSON of the filter
// that keeps the rows it does not mark over the flagged table read as
// the alias given, and worded, the warning with what a probe found said
// (worded(nil) is text). q is nil for a warning not probed.
type testFinding struct {
	text   string
	q      *planast.Query
	alias  string
	hops   []fkHop
	keep   func(alias string) string
	worded func(*flagEffect) string
}

// testFindings are testRecords' warnings, each once, in order.
func testFindings(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []testFinding {
	if !aggregating(plan) {
		return nil
	}
	read := columns()
	var out []testFinding
	add := func(fd testFinding) {
		i := slices.IndexFunc(out, func(o testFinding) bool { return o.text == fd.text })
		switch {
		case fd.text == "":
		case i < 0:
			out = append(out, fd)
		case fd.q != nil && (out[i].q == nil || !aggregatingQuery(out[i].q) && aggregatingQuery(fd.q)):
			// the same flag read again where the figure is made: probed there
			out[i] = fd
		}
	}
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
				found := flaggedParents(snap, t, direct, read)
				for i := range found {
					found[i].q, found[i].alias = q, f.Alias
				}
				parents = append(parents, found...)
			}
			for i := range t.Columns {
				add(flagWarning(q, f.Alias, t, &t.Columns[i], read))
			}
			add(testFinding{text: notedRecords(f.Alias, t, read)})
		}
	})
	return append(out, parentWarnings(parents)...)
}

// notedRecords says of table t (source alias), which has no flag of test
// records, the records its notes name by a rule a filter reads ("accounts
// with an @example.com email are test accounts": the owners' only way of
// marking them), when the plan never reads the rule's column: a top
// customers by revenue listed the QA account second, the rule quoted in
// the schema and nowhere in the result.
func notedRecords(alias string, t *schema.Table, read map[string]bool) string {
	if slices.ContainsFunc(t.Columns, func(c schema.Column) bool { _, _, ok := schemactx.TestFlag(&c); return ok }) {
		return "" // the flag's warning says its note's rules
	}
	rules, _ := schemactx.TestNoteRules(t, &schema.Column{})
	missed, filters := unreadRules(alias, t, rules, read)
	if len(missed) == 0 {
		return ""
	}
	return fmt.Sprintf(`the notes of %s name test or internal records, the rows where %s, and this plan never reads %s: they count in the result; if they should not, add %s to the filters, each with "and"`,
		t.Name, rulesSaid(t.Name, missed), andList(ruleColumns(missed)), strings.Join(filters, ", "))
}

// flagWarning says of column c of table t (source alias in query q) that
// it flags test records the plan never reads, with the filter that leaves
// them out and what the flag's note adds to it (realFilter); of a flag
// the plan reads, the records its note adds that the plan does not leave
// out (noteRulesUnread, not probed); else "".
func flagWarning(q *planast.Query, alias string, t *schema.Table, c *schema.Column, read map[string]bool) testFinding {
	marked, unmarked, ok := unreadFlag(c, read)
	if !ok {
		return testFinding{text: noteRulesUnread(alias, t, c, read)}
	}
	filter, said := realFilter(alias, t, c, marked, unmarked, shownNote(c))
	head := fmt.Sprintf(`%s.%s %s%s%s, and this plan never reads it: `,
		t.Name, c.Name, schemactx.TestFlagNote(marked), columnNote(c), kindsSaid(c, marked))
	who := "it marks"
	if rules, _ := schemactx.TestNoteRules(t, c); len(rules) > 0 {
		who = "it or its note marks"
	}
	worded := flagWording(head, "their rows", who, "is of a record", "are of records", fmt.Sprintf(`add %s to the filters with "and"%s`, filter, said))
	return testFinding{
		text: worded(nil), q: q, alias: alias, worded: worded,
		keep: func(a string) string { f, _ := realFilter(a, t, c, marked, unmarked, ""); return f },
	}
}

// realFilter is the plan JSON of the filter that keeps the records flag c
// (of table t, source alias) does not mark (unmarkedFilter), and leaves
// out too the rows its note says are test records beside the flag
// (schemactx.TestNoteRules: an email domain): following a filter on the
// flag alone answered 1353 bookings of real customers where the note's
// rule left 1302. said tells what the filter adds for the note's rules,
// and, of a rule the note says in words no filter reads, that the filter
// does not cover it, quoting it unless shown (the part of the note the
// warning quotes) holds it.
func realFilter(alias string, t *schema.Table, c *schema.Column, marked, unmarked any, shown string) (filter, said string) {
	filter = unmarkedFilter(alias, c, marked, unmarked)
	rules, unread := schemactx.TestNoteRules(t, c)
	for _, r := range rules {
		filter = fmt.Sprintf(`{"kind": "binary", "op": "and", "left": %s, "right": %s}`, filter, ruleFilter(alias, t, r))
	}
	if len(rules) > 0 {
		said = fmt.Sprintf(" (it also leaves out the rows its note adds: %s)", rulesSaid(t.Name, rules))
	}
	return filter, said + uncoveredSaid(unread, shown)
}

// ruleFilter is the plan JSON of the filter that keeps the rows of table
// t (source alias) that rule r does not name: its column does not match
// the pattern, in any letter case, or is NULL where the column holds
// NULLs (NOT LIKE of a NULL drops the row, and a record with no email is
// no test record by this rule).
func ruleFilter(alias string, t *schema.Table, r schemactx.NoteRule) string {
	col := &planast.Column{Table: alias, Column: r.Column}
	var keep planast.Expr = &planast.Like{Expr: col, Pattern: &planast.Literal{Type: planast.TString, Text: r.Pattern}, CaseInsensitive: true, Negated: true}
	if c := columnOf(t, r.Column); c == nil || c.Profile == nil || c.Profile.NullFraction > 0 {
		keep = &planast.Binary{Op: "or", Left: &planast.IsNull{Expr: col}, Right: keep}
	}
	b, _ := planast.JSON(keep)
	return string(b)
}

// columnOf is t's column named name, or nil.
func columnOf(t *schema.Table, name string) *schema.Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// rulesSaid says rules of table name in words: `customers.email ends in
// "@example.com" (any case)`.
func rulesSaid(name string, rules []schemactx.NoteRule) string {
	said := make([]string, len(rules))
	for i, r := range rules {
		said[i] = fmt.Sprintf("%s.%s %s", name, r.Column, r.Says)
	}
	return strings.Join(said, " or ") + " (any case)"
}

// uncoveredSaid says that a flag's note adds records in words no filter
// reads (unread: schemactx.TestNoteRules), quoting them as data unless
// shown, the part of the note a warning quotes already, holds them all.
func uncoveredSaid(unread []string, shown string) string {
	if len(unread) == 0 {
		return ""
	}
	all := true
	var q []string
	for _, s := range unread {
		all = all && strings.Contains(shown, s)
		q = append(q, jsonText(planast.Truncate(s, 160)))
	}
	if all {
		return "; its note adds a rule this filter does not cover: apply it too"
	}
	return "; its note adds a rule this filter does not cover: " + strings.Join(q, ", ") + ": apply it too"
}

// kindsSaid names the kinds of record beside test and internal ones that
// the note of flag c names (schemactx.NoteKinds: partners, resellers), as
// data: the flag was said to mark test or internal records while its
// note said partners' accounts too. Of a category column that holds such
// a kind as a value it does not mark, it says the filter keeps them.
func kindsSaid(c *schema.Column, marked any) string {
	kinds := schemactx.NoteKinds(c)
	if len(kinds) == 0 {
		return ""
	}
	q := make([]string, len(kinds))
	kept := false
	for i, k := range kinds {
		q[i] = jsonText(k)
		kept = kept || c.Profile != nil && slices.ContainsFunc(c.Profile.SampleValues, func(v any) bool {
			s, ok := v.(string)
			return ok && strings.EqualFold(strings.TrimSpace(s), k) && !isMarked(marked, v)
		})
	}
	if kept {
		return fmt.Sprintf(" (its note also names %s records, which the filter below keeps)", andList(q))
	}
	return fmt.Sprintf(" (its note also names %s records)", andList(q))
}

// isMarked reports whether v is marked, TestFlag's marked value or one of
// its list.
func isMarked(marked, v any) bool {
	if list, ok := marked.([]any); ok {
		return slices.Contains(list, v)
	}
	return marked == v
}

// noteRulesUnread says, of flag c of table t (source alias) that the plan
// reads, the rules its note adds (schemactx.TestNoteRules) on a column the
// plan never reads: a plan that filtered on is_test as told still
// counted the @example.com accounts its note names, and was told
// nothing. "" when there are none.
func noteRulesUnread(alias string, t *schema.Table, c *schema.Column, read map[string]bool) string {
	if !read[strings.ToLower(c.Name)] {
		return ""
	}
	if _, _, ok := schemactx.TestFlag(c); !ok {
		return ""
	}
	rules, _ := schemactx.TestNoteRules(t, c)
	missed, filters := unreadRules(alias, t, rules, read)
	if len(missed) == 0 {
		return ""
	}
	return fmt.Sprintf(`%s.%s marks test records, and its note adds the rows where %s: this plan reads the flag but not %s, so they count in the result; if they should not, add %s to the filters, each with "and"`,
		t.Name, c.Name, rulesSaid(t.Name, missed), andList(ruleColumns(missed)), strings.Join(filters, ", "))
}

// unreadRules are the rules of t's notes on a column the plan never reads
// (read), with the filter (plan JSON, source alias) that applies each.
func unreadRules(alias string, t *schema.Table, rules []schemactx.NoteRule, read map[string]bool) (missed []schemactx.NoteRule, filters []string) {
	for _, r := range rules {
		if !read[strings.ToLower(r.Column)] {
			missed = append(missed, r)
			filters = append(filters, ruleFilter(alias, t, r))
		}
	}
	return missed, filters
}

// ruleColumns are the columns rules read, each once.
func ruleColumns(rules []schemactx.NoteRule) []string {
	var out []string
	for _, r := range rules {
		if !slices.Contains(out, r.Column) {
			out = append(out, r.Column)
		}
	}
	return out
}

// columnNote is " (its note: "…")" for a column with a comment, else "":
// the schema's own words on which values are real records ("only
// 'patient' rows are real customers") are read by whoever writes the
// filter, where a rule that parsed them would guess.
func columnNote(c *schema.Column) string {
	if c.Comment == "" {
		return ""
	}
	return fmt.Sprintf(" (its note: %q)", shownNote(c))
}

// shownNote is the part of c's note a warning quotes: a warning has a
// budget, and the note is whole in the schema's description.
func shownNote(c *schema.Column) string {
	return planast.Truncate(c.Comment, 200)
}

// parentFlag is a flag of test or internal records on parent, a table
// the rows of child belong to through foreign keys (path), which the plan
// never reads (flaggedParents).
type parentFlag struct {
	q           *planast.Query // where child is read, as alias
	alias       string
	child, path string
	hops        []fkHop
	parent      *schema.Table
	col         *schema.Column
	marked      any
	unmarked    any
}

// fkHop is one foreign key followed from table from.
type fkHop struct {
	from *schema.Table
	fk   schema.ForeignKey
}

// parentWarnings says each flagged parent once, with every table read
// that belongs to it and every flag it has: a plan over invoices, their
// lines and payments, all belonging to accounts flagged two ways, was
// told so in six near-alike paragraphs that buried the other warnings.
// Each is probed over the first way there from a query that aggregates.
func parentWarnings(flags []parentFlag) []testFinding {
	var order []*schema.Table
	children, paths, cols, marks, notes := map[*schema.Table][]string{}, map[*schema.Table][]string{}, map[*schema.Table][]string{}, map[*schema.Table][]string{}, map[*schema.Table]string{}
	filters := map[*schema.Table][]string{}
	flagged, way := map[*schema.Table][]parentFlag{}, map[*schema.Table]*parentFlag{}
	noted := map[*schema.Table]bool{}
	for i, f := range flags {
		p := f.parent
		if _, ok := paths[p]; !ok {
			order = append(order, p)
		}
		if way[p] == nil && aggregatingQuery(f.q) {
			way[p] = &flags[i]
		}
		if !slices.Contains(children[p], f.child) {
			children[p] = append(children[p], f.child)
		}
		if !slices.Contains(paths[p], f.path) {
			paths[p] = append(paths[p], f.path)
		}
		if !slices.Contains(cols[p], f.col.Name) {
			cols[p] = append(cols[p], f.col.Name)
			flagged[p] = append(flagged[p], f)
			marks[p] = append(marks[p], f.col.Name+" "+schemactx.TestFlagMarks(f.marked)+kindsSaid(f.col, f.marked))
			notes[p] += flagNoteSaid(p, f.col)
			if rules, _ := schemactx.TestNoteRules(p, f.col); len(rules) > 0 {
				noted[p] = true
			}
			// as plan JSON, aliased by the table's name: a flag NULL on
			// most rows ("is_test = 0" keeps none of them) and the rules
			// its notes add are in it
			filter, _ := realFilter(p.Name, p, f.col, f.marked, f.unmarked, "")
			filters[p] = append(filters[p], filter)
		}
	}
	out := make([]testFinding, 0, len(order))
	for _, p := range order {
		it, who := "it", "it marks"
		switch {
		case len(cols[p]) > 1 && noted[p]:
			it, who = "them", "they or their notes mark"
		case len(cols[p]) > 1:
			it, who = "them", "they mark"
		case noted[p]:
			who = "it or its note marks"
		}
		head := fmt.Sprintf("each row of %s belongs to one of %s (%s), whose %s: %s, and this plan never reads %s: ",
			andList(children[p]), p.Name, strings.Join(paths[p], "; "), strings.Join(marks[p], ", and whose "), schemactx.TestRecordsChoice, it)
		fix := fmt.Sprintf("join %s and filter on %s%s, e.g. %s (%s as the alias of %s)",
			p.Name, andList(cols[p]), notes[p], strings.Join(filters[p], " and "), jsonText(p.Name), p.Name)
		worded := flagWording(head, "the rows of test records", who, "belongs to a record", "belong to records", fix)
		fd := testFinding{text: worded(nil), worded: worded}
		if w := way[p]; w != nil {
			marks := flagged[p]
			fd.q, fd.alias, fd.hops = w.q, w.alias, w.hops
			fd.keep = func(a string) string {
				var keep []string
				for _, f := range marks {
					k, _ := realFilter(a, p, f.col, f.marked, f.unmarked, "")
					keep = append(keep, k)
				}
				return andJSON(keep)
			}
		}
		out = append(out, fd)
	}
	return out
}

// flagNoteSaid is what the note of flag c of table t adds to a filter on
// the flag alone, for a fix said in words: the rows its rules name
// (schemactx.TestNoteRules), and that a rule in words is not covered.
func flagNoteSaid(t *schema.Table, c *schema.Column) string {
	rules, unread := schemactx.TestNoteRules(t, c)
	said := ""
	if len(rules) > 0 {
		said = fmt.Sprintf("; its note adds the rows where %s: leave them out too", rulesSaid(t.Name, rules))
	}
	return said + uncoveredSaid(unread, "")
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
		aggregates = aggregates || aggregatingQuery(q)
	})
	return aggregates
}

// aggregatingQuery reports whether q itself groups or aggregates.
func aggregatingQuery(q *planast.Query) bool {
	return q != nil && (len(q.GroupBy) > 0 || slices.ContainsFunc(q.Select, func(it planast.SelectItem) bool { return planast.ContainsAggregate(it.Expr) }))
}

// deletedRows names a column marking rows deleted in place
// (appointments.deleted_at, is_void: schemactx.DeletedMark) on a table a
// plan reads without ever reading the column: 20 soft-deleted
// appointments and 2 merged patients counted in every figure, and nothing
// said they were there. The warning gives the filter that leaves them
// out; a plan that reads the column anywhere decided already. A table
// joined by its key to the rows the plan counts (a listing to its
// bookings) is not one: a booking of a listing removed since happened,
// and leaving it out, as the warning said, cut the figure; unless the
// plan counts that table's own rows through the join (ownRowsCounted:
// COUNT(DISTINCT w.ws_id) over events joined to their workspaces counts
// deleted workspaces as a plan over workspaces alone, which is told, does).
func deletedRows(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			t, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok || joinedByKey(q, f.Alias, t) && !ownRowsCounted(q, f.Alias) {
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
// foreign keys (child to parent, each row to one), declared or a column
// named as the other's key that none declares (parentLinks: the path says
// so), that flags test or internal records the plan never reads: a sum of
// invoices counted the QA accounts' invoices, their flag being on owners,
// which the plan did not join. Tables the plan reads itself (direct) are
// said of by name.
func flaggedParents(snap *schema.Snapshot, t *schema.Table, direct, read map[string]bool) []parentFlag {
	type step struct {
		t     *schema.Table
		path  string
		hops  []fkHop
		named []string // the hops by name, as joinsSaid says them
	}
	var out []parentFlag
	seen := map[string]bool{t.Schema + "." + t.Name: true}
	level := []step{{t: t, path: t.Name}}
	for range maxFlagHops {
		var next []step
		for _, s := range level {
			for _, link := range parentLinks(snap, s.t) {
				fk := link.fk
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
				hops, named := append(slices.Clip(s.hops), fkHop{s.t, fk}), s.named
				if link.byName {
					named = append(slices.Clip(named), joinsSaid([]fkHop{{s.t, fk}}))
				}
				next = append(next, step{p, path, hops, named})
				if direct[key] {
					continue
				}
				for i := range p.Columns {
					c := &p.Columns[i]
					marked, unmarked, ok := unreadFlag(c, read)
					if !ok {
						continue
					}
					out = append(out, parentFlag{child: t.Name, path: path + byNameSaid(named), hops: hops, parent: p, col: c, marked: marked, unmarked: unmarked})
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

// flagWording words a test-records warning after head: unprobed (eff nil:
// rows "count in the result"), none of the rows read marked, or how many
// are and what they hold (flagEffect.said), each ending in fix. One and
// many are the verb phrases of one row and of several ("is of a record",
// "are of records"; a parent's: "belongs to a record").
func flagWording(head, rows, who, one, many, fix string) func(*flagEffect) string {
	return func(eff *flagEffect) string {
		switch {
		case eff == nil:
			return head + rows + " count in the result; if they should not, " + fix
		case eff.marked == 0:
			return head + fmt.Sprintf("none of the %d rows this plan reads %s %s, so leaving them out would not change this result; to keep them out should some be added, %s", eff.rows, one, who, fix)
		}
		return head + fmt.Sprintf("%d of the %d rows this plan reads %s %s%s: they count in the result; if they should not, %s", eff.marked, eff.rows, many, who, eff.said(), fix)
	}
}
