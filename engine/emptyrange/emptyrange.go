package emptyrange

import (
	"fmt"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Warnings explains an empty result whose plan compares a date
// or timestamp column with literals outside the column's profiled range
// (orders run 2016-07..2018-05, the plan asks for 1997): one warning per
// such comparison, naming the column's range. Only the plan and the
// snapshot's profile are read, nothing is queried. Values are quoted.
func Warnings(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok || q.Where == nil {
			return true
		}
		planast.Inspect(q.Where, func(n planast.Node) bool {
			var col *planast.Column
			var lits []*planast.Literal
			switch e := n.(type) {
			case *planast.Binary:
				switch e.Op {
				case "=", "<", "<=", ">", ">=":
				default:
					return true
				}
				col, lits = ColumnAndLiterals(e.Left, e.Right)
			case *planast.Between:
				c, _ := e.Expr.(*planast.Column)
				lo, _ := e.Low.(*planast.Literal)
				hi, _ := e.High.(*planast.Literal)
				if c != nil && lo != nil && hi != nil {
					col, lits = c, []*planast.Literal{lo, hi}
				}
			}
			if col == nil {
				return true
			}
			c := FromColumn(snap, q, col)
			if c == nil || c.Profile == nil || c.Profile.Min == nil || c.Profile.Max == nil ||
				!(c.Type.IsTemporal() || c.Profile.Temporal != "") {
				return true
			}
			lo, hi := day(fmt.Sprint(c.Profile.Min)), day(fmt.Sprint(c.Profile.Max))
			outside := true // every literal outside: a BETWEEN spanning the range is not
			for _, l := range lits {
				if l.Type != planast.TDate && l.Type != planast.TTimestamp && l.Type != planast.TString {
					return true
				}
				if d := day(l.Text); d >= lo && d <= hi {
					outside = false
				}
			}
			if _, isBetween := n.(*planast.Between); isBetween && outside && day(lits[0].Text) <= lo && day(lits[1].Text) >= hi {
				outside = false
			}
			key := c.Name + "\x00" + fmt.Sprint(lits)
			if outside && !seen[key] {
				seen[key] = true
				vals := make([]string, len(lits))
				for i, l := range lits {
					vals[i] = fmt.Sprintf("%q", l.Text)
				}
				w := fmt.Sprintf("no rows matched, and the plan compares %q with %v, outside the column's profiled range %q..%q", c.Name, vals, fmt.Sprint(c.Profile.Min), fmt.Sprint(c.Profile.Max))
				if n, from, to, unit, _, ok := c.Profile.UnixTimes(); ok && c.Type.IsTemporal() {
					// the range is of the dates alone: Unix times stored
					// beside them may fall where the literals do
					w += fmt.Sprintf(", which leaves out the %d Unix %s it stores as numbers (%s to %s read as dates)", n, unit, from.Format("2006-01-02"), to.Format("2006-01-02"))
				}
				out = append(out, w)
			}
			return true
		})
		return true
	})
	return out
}

// ColumnAndLiterals returns the column and literal of a comparison of a
// column with a literal, either way round.
func ColumnAndLiterals(a, b planast.Expr) (*planast.Column, []*planast.Literal) {
	if c, ok := a.(*planast.Column); ok {
		if l, ok := b.(*planast.Literal); ok {
			return c, []*planast.Literal{l}
		}
	}
	if c, ok := b.(*planast.Column); ok {
		if l, ok := a.(*planast.Literal); ok {
			return c, []*planast.Literal{l}
		}
	}
	return nil, nil
}

// FromColumn finds the stored column a column reference of q names:
// through its alias, or the only source when it has none; through a
// derived table or a CTE of q whose output column is a stored column as
// it is (see TableOfColumn).
func FromColumn(snap *schema.Snapshot, q *planast.Query, ref *planast.Column) *schema.Column {
	_, c := TableOfColumn(snap, q, ref)
	return c
}

// TableOfColumn is FromColumn with the table the column belongs to. A
// column of a derived table or of a CTE named in q's with is followed to
// the stored column when the inner select item is that column as it is
// (SELECT s.status AS st): its values are the stored column's, so what
// the profile says of them (spellings, dates written two ways, values a
// cast reads as NULL) holds for the outer reference too; the checks
// stopped at the first CTE a host wrote. A computed item, or a query
// with set operations, is no stored column.
func TableOfColumn(snap *schema.Snapshot, q *planast.Query, ref *planast.Column) (*schema.Table, *schema.Column) {
	return tableOfColumn(snap, q, ref, nil, 0)
}

// maxDerivedDepth bounds the derived tables followed (a CTE that names
// itself would otherwise loop).
const maxDerivedDepth = 16

func tableOfColumn(snap *schema.Snapshot, q *planast.Query, ref *planast.Column, ctes map[string]*planast.Query, depth int) (*schema.Table, *schema.Column) {
	if depth > maxDerivedDepth {
		return nil, nil
	}
	if len(q.With) > 0 {
		inner := make(map[string]*planast.Query, len(ctes)+len(q.With))
		for name, cq := range ctes {
			inner[name] = cq
		}
		for _, c := range q.With {
			inner[c.Name] = c.Query
		}
		ctes = inner
	}
	for _, f := range q.From {
		if (ref.Table != "" && f.Alias != ref.Table) || (ref.Table == "" && len(q.From) != 1) {
			continue
		}
		derived := f.Subquery
		if derived == nil && f.Schema == "" {
			derived = ctes[f.Table] // a CTE's name hides a stored table's
		}
		if derived != nil {
			col := derived.PassedThrough(ref.Column)
			if col == nil {
				return nil, nil
			}
			return tableOfColumn(snap, derived, col, ctes, depth+1)
		}
		t, ok := snap.Lookup(f.Schema, f.Table)
		if !ok {
			return nil, nil
		}
		for i := range t.Columns {
			if t.Columns[i].Name == ref.Column {
				return t, &t.Columns[i]
			}
		}
	}
	return nil, nil
}

// day is the date part (YYYY-MM-DD) of an ISO date or timestamp text, so
// "2018-01-01" and "2018-01-01 00:00:00" compare as the same day.
func day(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}
