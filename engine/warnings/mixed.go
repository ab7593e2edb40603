package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// mixedWarnings name each column the plan read as its type because some of
// its stored values are not of it (planast.Column.ReadAs: 'abc' in a SQLite
// INTEGER column): those values were read as NULL, so they counted in no
// sum, average, comparison or group, and a user who expected them there is
// told how many there are and what one looks like. The count and the
// example come from the profile, which a caller behind a row filter does
// not get: such a caller hears only that there are some.
func mixedWarnings(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		planast.Inspect(q, func(n planast.Node) bool {
			if sub, ok := n.(*planast.Query); ok && sub != q {
				return false // visited with its own sources
			}
			ref, ok := n.(*planast.Column)
			if !ok || ref.ReadAs == "" {
				return true
			}
			if _, c := emptyrange.TableOfColumn(snap, q, ref); c != nil && !seen[c] {
				seen[c] = true
				out = append(out, mixedWarning(c))
			}
			return true
		})
		return true
	})
	return out
}

func mixedWarning(c *schema.Column) string {
	what := "values that are not " + typeNoun(c.Type, true)
	if p := c.Profile; p != nil && p.Invalid > 0 {
		if p.Invalid == 1 {
			what = "1 value that is not " + typeNoun(c.Type, false)
		} else {
			what = fmt.Sprintf("%d values that are not %s", p.Invalid, typeNoun(c.Type, true))
		}
		if p.InvalidExample != nil {
			what += " (such as " + example(p.InvalidExample, c.Type) + ")"
		}
	}
	return fmt.Sprintf("%q holds %s; the plan read them as NULL, so they count in no sum, average, comparison or group (PostgreSQL and DuckDB could not store them)",
		c.Name, what)
}

// example is a stored value quoted as data, at most 40 characters of it;
// one that is no text (45000 in a DATE column, a blob) by the one value
// rule.
func example(v any, t planast.Type) string {
	s, ok := v.(string)
	if !ok {
		return cellfmt.Value(v, t)
	}
	if r := []rune(s); len(r) > 40 {
		return cellfmt.Quote(string(r[:40])) + "…"
	}
	return cellfmt.Quote(s)
}

func typeNoun(t planast.Type, plural bool) string {
	n := map[planast.Type]string{planast.TypeInteger: "an integer", planast.TypeDecimal: "a number", planast.TypeFloat: "a number",
		planast.TypeDate: "a valid date", planast.TypeTimestamp: "a valid timestamp"}[t]
	if n == "" {
		n = "a " + string(t) + " value"
	}
	if plural {
		_, n, _ = strings.Cut(n, " ")
		n += "s"
	}
	return n
}
