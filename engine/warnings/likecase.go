package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// likeCaseMisses name a case-sensitive LIKE whose pattern the column's
// known values prove too narrow: category LIKE 'plumb%' over a column
// that stores 'plumbing' and 'Plumbing' counts 5 tickets of 6 and looks
// right. A stored value that matches the pattern once letter case is
// ignored, and not as written, is the proof; the fix is the like's
// case_insensitive. A filter that matched nothing is said of by the
// filters' own case warning instead (caseWarning).
func likeCaseMisses(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string, empty bool) []string {
	if empty {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, cond := range []planast.Expr{q.Where, q.Having} {
			planast.Inspect(cond, func(n planast.Node) bool {
				if l, ok := n.(*planast.Like); ok && !l.CaseInsensitive {
					if w := likeCaseMiss(snap, q, l, stored); w != "" && !seen[w] {
						seen[w] = true
						out = append(out, w)
					}
				}
				return true
			})
		}
		return true
	})
	return out
}

// likeCaseMiss is likeCaseMisses' check of one like; "" when its pattern
// is no text literal with letters, its operand no text column, or no
// known value is missed for its case alone.
func likeCaseMiss(snap *schema.Snapshot, q *planast.Query, l *planast.Like, stored func(string, string, string) []string) string {
	t, c, lit := textFilter(snap, q, l.Expr, l.Pattern)
	if c == nil || strings.ToLower(lit.Text) == strings.ToUpper(lit.Text) {
		return ""
	}
	exact, folded := likeMatchers(lit.Text, true)
	vals, _ := knownValues(t, c, stored)
	var missed []string
	seen := map[string]bool{}
	for _, v := range vals {
		if !seen[v] && folded(v) && !exact(v) {
			missed = append(missed, v)
		}
		seen[v] = true
	}
	if len(missed) == 0 {
		return ""
	}
	op, effect := "LIKE", "their rows are left out"
	if l.Negated {
		op, effect = "NOT LIKE", "their rows are kept"
	}
	return fmt.Sprintf(`%q %s %q compares case-sensitively (on every engine), and the column also stores %s, which the pattern matches only once letter case is ignored: %s; set "case_insensitive": true on the like to match regardless of case`,
		c.Name, op, lit.Text, someQuoted(missed), effect)
}
