package warnings

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// absentLiterals explain comparisons that are true for no row: a text
// literal compared with = or IN to a column whose values are all known
// (the profile saw them all, or the value index lists them all) and none
// of which is that literal. A typo ('payd' for 'paid') inside a CASE under
// COUNT gives a count of 0, inside a filter no rows; either way the answer
// "none" is wrong and looks right. The warning names the nearest stored
// values (planast.Near, the rule that suggests names). Literals the
// warnings already given quote (said) are left to them: the spelling and
// part warnings of an empty result say more.
func absentLiterals(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string, said []string) []string {
	var out []string
	seen := map[string]bool{}
	check := func(q *planast.Query, x planast.Expr, lit planast.Expr) {
		w := absentLiteral(snap, q, x, lit, stored)
		if w == "" || seen[w] {
			return
		}
		quoted := fmt.Sprintf("%q", lit.(*planast.Literal).Text)
		if slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, quoted) }) {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	literalComparisons(plan, func(q *planast.Query, x, lit planast.Expr, op string, _ []planast.Expr) {
		if op == "=" || op == "IN" {
			check(q, x, lit)
		}
	})
	return out
}

// maxListed is how many distinct values a warning lists in full when none
// is near the literal.
const maxListed = 8

// absentLiteral is absentLiterals' check of one comparison of x with a
// literal; "" when x is no text column of q, the literal no string, the
// column's values not all known, or the literal one of them.
func absentLiteral(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr, stored func(string, string, string) []string) string {
	t, c, lit := textFilter(snap, q, x, pattern)
	if c == nil {
		return ""
	}
	vals, all := knownValues(t, c, stored)
	if !all || len(vals) == 0 || slices.Contains(vals, lit.Text) {
		return ""
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	near := ""
	if n := planast.Near(lit.Text, vals); len(n) == 1 && norm.NFC.String(n[0]) == norm.NFC.String(lit.Text) {
		// the two print alike: say how they differ, or the warning reads
		// as a contradiction
		near = fmt.Sprintf("; the stored value %q is the same text with its accented letters encoded another way (Unicode's composed and decomposed forms), which = tells apart: compare with the stored one", n[0])
	} else if len(n) == 1 {
		near = fmt.Sprintf("; the nearest stored value is %q", n[0])
	} else if len(n) > 1 {
		// several spellings are as near: which one was meant is the
		// reader's to say, and each may hold other rows
		near = "; the nearest stored values are " + someQuoted(n)
	} else if len(vals) <= maxListed {
		quoted := make([]string, len(vals))
		for i, v := range vals {
			quoted[i] = fmt.Sprintf("%q", v)
		}
		near = "; its values are " + strings.Join(quoted, ", ")
	}
	// "as profiled": a value written since the profile is not in it, and a
	// run that matched such a row sat beside a warning saying none can
	return fmt.Sprintf("no stored value of %q is %q (the %d distinct values read when the datasource was profiled do not include it), so = with it is true for no row as profiled (a value written since is not in the profile)%s", c.Name, lit.Text, len(vals), near)
}
