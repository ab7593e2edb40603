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
// and silences alike, with nothing said. The fix leaves those rows out by
// a filter, or reads the column through NULLIF, which every aggregate
// skips. A query whose filters or grouping read the column already
// decided what to do with it and is left alone. A column no comment
// speaks of, whose profiled values are a small scale and one value apart
// from it, is SentinelProbes'.
func sentinelAggregates(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	sentinelUses(snap, plan, func(_ *planast.Query, f *planast.Func, ref *planast.Column, c *schema.Column) {
		v, meaning := sentinel(c)
		if v == "" {
			return
		}
		w := sentinelText(f, ref, v, fmt.Sprintf("the column's comment says %s means %q", v, meaning))
		if w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	})
	return out
}

// sentinelUses calls use with each AVG, SUM, MIN or MAX of plan that
// reads a column as it is (or through a cast) in a query whose where,
// having and grouping do not read it, with the column's profile.
func sentinelUses(snap *schema.Snapshot, plan *planast.Query, use func(q *planast.Query, f *planast.Func, ref *planast.Column, c *schema.Column)) {
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
			if c == nil || !c.Type.IsNumeric() || filteredBy(q, ref) {
				return
			}
			use(q, f, ref, c)
		})
	})
}

// sentinelText is the warning of aggregate f reading value v of column
// ref, which why says stands apart, with the filter that leaves its rows
// out and the NULLIF that skips them where the query's other figures need
// every row; "" when the plan's expressions cannot be written.
func sentinelText(f *planast.Func, ref *planast.Column, v, why string) string {
	arg, err := planast.JSON(f.Args[0])
	if err != nil {
		return ""
	}
	col, err := planast.JSON(ref)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s(%s.%s) reads %s as a number, but %s: those rows pull the figure toward %s; to leave them out add to the where {\"kind\": \"binary\", \"op\": \"!=\", \"left\": %s, \"right\": {\"kind\": \"literal\", \"value\": %s}}, or, to keep the rows for the query's other figures, read the column as {\"kind\": \"func\", \"name\": \"NULLIF\", \"args\": [%s, {\"kind\": \"literal\", \"value\": %s}]}",
		strings.ToUpper(f.Name), ref.Table, ref.Column, v, why, v, col, v, arg, v)
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
