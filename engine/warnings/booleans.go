package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// A SQLite boolean column may hold 'yes' or 'true' beside 1 and 0
// (ColumnProfile.Respelled). A plan reads such text as the boolean it
// spells (render.ReadAs); SQLite's own SQL takes it for the number 0, so
// `WHERE is_public` and `is_public = 1` skip those rows. The plan's
// reading is the fix, and no run warns of it; but SQL that meant
// SQLite's reading, a view's or the SQL a plan was lifted from, counts
// fewer rows than the plan, which only these warnings say.

// spelt are the values of SQLite boolean column c stored as text that
// a plan reads as the boolean reads (render.ReadsTrue or ReadsFalse),
// quoted, from the profile's samples; "1" and "0" as text are left out,
// being what SQLite itself reads.
func spelt(c *schema.Column, reads func(string) bool) []string {
	if c == nil || c.Type != planast.TypeBoolean || c.Profile == nil || c.Profile.Respelled == 0 {
		return nil
	}
	var out []string
	for _, v := range c.Profile.SampleValues {
		if s, ok := v.(string); ok && reads(s) && strings.Trim(s, " ") != "1" && strings.Trim(s, " ") != "0" {
			out = append(out, render.QuoteString(s))
		}
	}
	return out
}

// trueTexts are the values of SQLite boolean column c stored as text
// that a plan reads as true and SQLite as false ('no' is false either
// way).
func trueTexts(c *schema.Column) []string { return spelt(c, render.ReadsTrue) }

// respelled calls f once with each boolean column holding text spellings
// (ColumnProfile.Respelled) that plan reads, its table and the first
// reference to it.
func respelled(snap *schema.Snapshot, plan *planast.Query, f func(t *schema.Table, c *schema.Column, ref *planast.Column)) {
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(n planast.Expr) {
			if ref, ok := n.(*planast.Column); ok {
				if t, c := emptyrange.TableOfColumn(snap, q, ref); c != nil && c.Profile != nil && c.Profile.Respelled > 0 && !seen[c] {
					seen[c] = true
					f(t, c, ref)
				}
			}
		})
	})
}

// LiftedBooleans are the warnings of a plan lifted from SQLite SQL
// (`plan from-sql`) that reads a boolean column holding text spellings of
// true: the plan counts those rows as true where the SQL did not.
func LiftedBooleans(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	respelled(snap, plan, func(t *schema.Table, c *schema.Column, _ *planast.Column) {
		if texts := trueTexts(c); len(texts) > 0 {
			out = append(out, fmt.Sprintf("%q.%q holds %d values spelt as text; the plan reads %s as true, where this SQL on SQLite reads them as false, so the plan can match or count more rows than the SQL",
				t.Name, c.Name, c.Profile.Respelled, andList(texts)))
		}
	})
	return out
}

// spelledBooleans say, of each boolean column a plan reads that holds
// text spellings, how the plan reads them: the result shows true and
// false, and a host auditing "how many are active" could not see that
// 'yes' and 'true' were counted. The profile counts the spellings
// together (Respelled); the column cast to text is each value as stored
// (render: 'y' apart from 1), so the warning gives that cast to group by
// for how many rows write each.
func spelledBooleans(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	respelled(snap, plan, func(t *schema.Table, c *schema.Column, ref *planast.Column) {
		yes, no := trueTexts(c), spelt(c, render.ReadsFalse)
		if len(yes)+len(no) == 0 {
			return
		}
		var how []string
		if len(yes) > 0 {
			how = append(how, andList(yes)+" as true")
		}
		if len(no) > 0 {
			how = append(how, andList(no)+" as false")
		}
		stored := fmt.Sprintf(`{"kind": "cast", "type": "text", "expr": {"kind": "column", "table": %s, "column": %s}}`, jsonText(ref.Table), jsonText(ref.Column))
		out = append(out, fmt.Sprintf("%q.%q holds %d values spelt as text; the plan reads %s, as a boolean column of PostgreSQL would (SQLite's own SQL takes text for false); to count the rows of each spelling, group by the column cast to text, which is each value as stored: %s",
			t.Name, c.Name, c.Profile.Respelled, strings.Join(how, " and "), stored))
	})
	return out
}

// viewBooleans warn of each view the plan reads whose definition names,
// past its select list, a boolean column of a table it reads that holds
// text spellings of true: the view filters or counts as SQLite reads
// them (false), a plan over the table as true, so "how many public
// events" had two answers by which of them a planner picked.
func viewBooleans(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Table]bool{}
	eachQuery(plan, func(q *planast.Query) {
		for _, f := range q.From {
			v, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok || v.Kind != schema.KindView || v.Definition == "" || seen[v] {
				continue
			}
			seen[v] = true
			out = append(out, viewBoolean(snap, v)...)
		}
	})
	return out
}

func viewBoolean(snap *schema.Snapshot, v *schema.Table) []string {
	toks, err := sqlscan.ScanSQLite(v.Definition)
	if err != nil {
		return nil
	}
	named := map[string]bool{}
	for _, t := range toks[max(sqlscan.TopLevel(toks, "FROM"), 0):] {
		if t.Kind == sqlscan.Word || t.Kind == sqlscan.Quoted {
			named[strings.ToLower(t.Name())] = true
		}
	}
	var out []string
	for _, r := range v.Reads {
		t, ok := snap.Lookup(r.Schema, r.Name)
		if !ok {
			continue
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			if texts := trueTexts(c); len(texts) > 0 && named[strings.ToLower(c.Name)] {
				out = append(out, fmt.Sprintf("view %q reads %q.%q as SQLite does, taking %s (of its %d values spelt as text) for false, where a plan over %q reads them as true: the view can count fewer rows than the table",
					v.Name, t.Name, c.Name, andList(texts), c.Profile.Respelled, t.Name))
			}
		}
	}
	return out
}

// textTruths reads the values of a text column as the booleans they
// spell (render.ReadsTrue, ReadsFalse: the reading a plan gives a SQLite
// boolean column), when every one of at least two distinct values spells
// one: '1', 'true' and 'yes' are then one value written three ways, as
// 'paid' and 'Paid ' are, and a filter on one of them leaves the others'
// rows out. ok is false when some value spells no boolean (a column of
// 'on', 'off' and 'paused' is a status, not a flag).
func textTruths(vals []string) (truth map[string]bool, ok bool) {
	truth = make(map[string]bool, len(vals))
	for _, v := range vals {
		switch {
		case render.ReadsTrue(v):
			truth[v] = true
		case render.ReadsFalse(v):
			truth[v] = false
		default:
			return nil, false
		}
	}
	return truth, len(truth) >= 2
}

// truthName is "true" or "false".
func truthName(b bool) string { return fmt.Sprint(b) }
