package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// joinKeyWarnings explains a run that matched nothing by a join whose key
// columns never hold the same text, though they would once letter case and
// surrounding spaces are ignored: flights.SourceAirport stores " APG" and
// airports.AirportCode "APG", so the declared key joins no row and every
// count over it is 0. The host would answer "none"; the warning names both
// spellings and the join written with TRIM (or LOWER) in a condition.
//
// Both columns' complete stored value lists are needed (stored; nil for a
// row-filtered caller or an unknown column; complete): a value left out
// could be the exact match, so a partial list (the profile's samples)
// proves nothing and is not used.
func joinKeyWarnings(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	if stored == nil {
		return nil
	}
	var out []string
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, j := range q.Joins {
			for _, on := range j.On {
				if w := joinKeyWarning(snap, q, j, on, stored); w != "" {
					out = append(out, w)
				}
			}
		}
		return true
	})
	return out
}

// joinKeyWarning checks one equality of a join; "" when its columns are
// not both text, share a stored value exactly, or do not share one loosely.
func joinKeyWarning(snap *schema.Snapshot, q *planast.Query, j planast.Join, on planast.OnPair, stored func(string, string, string) []string) string {
	lt, lc := emptyrange.TableOfColumn(snap, q, &planast.Column{Table: j.Left, Column: on.LeftColumn})
	rt, rc := emptyrange.TableOfColumn(snap, q, &planast.Column{Table: j.Right, Column: on.RightColumn})
	if lc == nil || rc == nil || !textual(lc) || !textual(rc) {
		return ""
	}
	left, right := stored(lt.Schema, lt.Name, lc.Name), stored(rt.Schema, rt.Name, rc.Name)
	if !complete(lc, left) || !complete(rc, right) {
		return ""
	}
	exact := make(map[string]bool, len(left))
	byLoose := make(map[string]string, len(left))
	for _, v := range left {
		exact[v] = true
		if _, seen := byLoose[loose(v)]; !seen {
			byLoose[loose(v)] = v
		}
	}
	matched, example := 0, [2]string{}
	for _, v := range right {
		if exact[v] {
			return ""
		}
		if l, ok := byLoose[loose(v)]; ok {
			if matched == 0 {
				example = [2]string{l, v}
			}
			matched++
		}
	}
	if matched == 0 {
		return ""
	}
	// TRIM when the spaces are the whole difference, LOWER when case is;
	// when both are, TRIM is shown and LOWER named as the outer call
	fix, also := "TRIM", ""
	switch {
	case strings.TrimSpace(example[0]) == strings.TrimSpace(example[1]):
	case strings.ToLower(example[0]) == strings.ToLower(example[1]):
		fix = "LOWER"
	default:
		also = " (and LOWER around each TRIM: they differ in letter case too)"
	}
	return fmt.Sprintf(`no rows matched, and the join %s.%s = %s.%s pairs no stored values exactly: %d values of %q equal one of %q only when letter case and surrounding spaces are ignored (%q against %q); join on a condition instead, with "on": [] and "condition": {"kind": "binary", "op": "=", "left": {"kind": "func", "name": %q, "args": [{"kind": "column", "table": %q, "column": %q}]}, "right": {"kind": "func", "name": %q, "args": [{"kind": "column", "table": %q, "column": %q}]}}%s`,
		j.Left, on.LeftColumn, j.Right, on.RightColumn, matched, rc.Name, lc.Name, example[0], example[1],
		fix, j.Left, on.LeftColumn, fix, j.Right, on.RightColumn, also)
}

// textual reports whether a column's values compare as text.
func textual(c *schema.Column) bool {
	return c.Type == planast.TypeText || c.Type == planast.TypeUnknown
}

// complete reports whether vals holds every distinct value the column's
// profile counted: the index keeps a column's values up to a bound, else
// only samples, and a missing value could be the one both sides share.
func complete(c *schema.Column, vals []string) bool {
	p := c.Profile
	return len(vals) > 0 && p != nil && p.SampledRows == 0 && p.DistinctCount > 0 && int64(len(vals)) >= p.DistinctCount
}
