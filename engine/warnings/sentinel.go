package warnings

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// sentinelRe finds, in a column's comment, a number said to stand for no
// value: "0 = survey sent but not answered", "-1 means unknown", "999:
// not measured", "stored 0 for a skipped rating", "0 is never a real
// rating". The number, then =, :, "means", "is", "for" or "stands for",
// then within the same clause a phrase of no value.
var sentinelRe = regexp.MustCompile(`(?i)(?:^|[\s(,;])(-?[0-9]+(?:\.[0-9]+)?)\s*(?:=|:|means|is|for|stands for)\s*([^;,.)]*?\b(?:not answered|unanswered|no answer|unknown|not known|not rated|no rating|unrated|skipped|not given|never a real|not a real|not measured|missing|not set|not applicable|n/a|no data|no value|not recorded|not available|none|placeholder)\b)`)

// sentinel is the number a column's comment says stands for no value,
// and the comment's words for it; "" when it says none.
func sentinel(c *schema.Column) (value, meaning string) {
	if c == nil || c.Comment == "" || !c.Type.IsNumeric() {
		return "", ""
	}
	m := sentinelRe.FindStringSubmatch(c.Comment)
	if m == nil {
		return "", ""
	}
	return m[1], strings.TrimSpace(m[2])
}

// sentinelAggregates explain an AVG, SUM, MIN or MAX of a number column
// whose comment says a value stands for no value ("0 = survey sent but
// not answered"): the aggregate reads it as a number, so an average
// satisfaction of 4.04 over the answers comes back as 3.23 over answers
// and silences alike, with nothing said. The fix reads the column through
// NULLIF, which every aggregate skips. A query whose filters or grouping
// read the column already decided what to do with it and is left alone.
func sentinelAggregates(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || len(f.Args) != 1 || !slices.Contains([]string{"AVG", "SUM", "MIN", "MAX"}, strings.ToUpper(f.Name)) {
				return
			}
			ref := bareColumn(f.Args[0])
			if ref == nil {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			v, meaning := sentinel(c)
			if v == "" || filteredBy(q, ref) {
				return
			}
			arg, err := planast.JSON(f.Args[0])
			if err != nil {
				return
			}
			w := fmt.Sprintf("%s(%s.%s) reads %s as a number, but the column's comment says %s means %q: those rows pull the figure toward %s; to leave them out read the column as {\"kind\": \"func\", \"name\": \"NULLIF\", \"args\": [%s, {\"kind\": \"literal\", \"value\": %s}]}",
				strings.ToUpper(f.Name), ref.Table, ref.Column, v, v, meaning, v, arg, v)
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		})
	})
	return out
}

// bareColumn is the column e reads as it is or through a cast; nil for
// anything else (NULLIF, CASE, arithmetic: a plan that did something with
// the value).
func bareColumn(e planast.Expr) *planast.Column {
	for {
		switch x := e.(type) {
		case *planast.Column:
			return x
		case *planast.Cast:
			e = x.Expr
		default:
			return nil
		}
	}
}

// filteredBy reports whether q's where, having or grouping reads ref's
// column.
func filteredBy(q *planast.Query, ref *planast.Column) bool {
	hit := false
	look := func(e planast.Expr) {
		if e == nil {
			return
		}
		inspectOwn(e, func(x planast.Expr) {
			if r, ok := x.(*planast.Column); ok && r.Table == ref.Table && r.Column == ref.Column {
				hit = true
			}
		})
	}
	look(q.Where)
	look(q.Having)
	for _, g := range q.GroupBy {
		look(groupedExpr(q, g))
	}
	return hit
}
