package warnings

import (
	"fmt"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// offsetDays names each text column of timestamps written with UTC
// offsets that the plan reads by the day it writes while some of its
// values fall on another day in UTC (schema.ColumnProfile.OffsetDays:
// '2024-12-31T23:30:00-05:00' is 2025-01-01 in UTC). A cast to date
// (PERIOD_LABEL, DATE_PART and DATE_TRUNC of text cast to it), a LIKE or
// a comparison of the text, MIN, MAX or an ORDER BY of it read the text as
// written, while a cast to timestamp reads the instant in UTC: counted
// by day or year, such a value lands where its writer's clock put it,
// which is the answer only if that is the day the user means. Both
// readings are right for some question; the warning says which one the
// plan took, how many values it decides, and how to write the other.
func offsetDays(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		check := func(x planast.Expr, how string) {
			ref, ok := x.(*planast.Column)
			if !ok {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || seen[c] || c.Type != planast.TypeText || c.Profile == nil || c.Profile.OffsetDays == nil {
				return
			}
			seen[c] = true
			od := c.Profile.OffsetDays
			what := fmt.Sprintf("%d values", od.Count)
			if od.Count == 1 {
				what = "1 value"
			}
			if s, ok := od.Example.(string); ok {
				what += " (such as " + example(s, planast.TypeText)
				if utc := utcOf(s); utc != "" {
					what += ", " + utc + " in UTC"
				}
				what += ")"
			}
			col, _ := planast.JSON(ref)
			out = append(out, fmt.Sprintf("%s.%s holds timestamps with UTC offsets, and %s written on one day fall on another in UTC; %s; for days in UTC read the column as {\"kind\": \"cast\", \"type\": \"date\", \"expr\": {\"kind\": \"cast\", \"type\": \"timestamp\", \"expr\": %s}} (a cast to timestamp reads the instant in UTC), and order or compare instants with the cast to timestamp",
				ref.Table, ref.Column, what, how, col))
		}
		inspectQuery(q, func(e planast.Expr) {
			switch x := e.(type) {
			case *planast.Cast:
				if x.Type == planast.CastDate {
					check(x.Expr, "the cast to date (PERIOD_LABEL, DATE_PART and DATE_TRUNC of the text cast too) reads the day as written (the writer's clock)")
				}
			case *planast.Like:
				// a pattern without a digit ('__/__/____ __:__') tests
				// the text's shape, not its day
				if lit, ok := x.Pattern.(*planast.Literal); !ok || hasDigit(lit.Text) {
					check(x.Expr, "LIKE on its text reads the day as written (the writer's clock)")
				}
			case *planast.Between:
				check(x.Expr, "a comparison of its text reads the day as written (the writer's clock)")
			case *planast.Binary:
				switch x.Op {
				case planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
					if col, _ := emptyrange.ColumnAndLiterals(x.Left, x.Right); col != nil {
						check(col, "a comparison of its text reads the day as written (the writer's clock)")
					}
				}
			case *planast.Func:
				if name := strings.ToUpper(x.Name); (name == "MIN" || name == "MAX") && len(x.Args) == 1 {
					check(x.Args[0], name+" of its text picks by the written time, not the instant")
				}
			}
		})
		for _, o := range q.OrderBy {
			check(o.Expr, "ORDER BY its text orders by the written time, not the instant")
		}
	})
	return out
}

// utcOf is the ISO timestamp s, which ends in a UTC offset, as the
// instant in UTC ("2025-01-01 04:30:00"), or "" when it does not parse.
func utcOf(s string) string {
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format(time.DateTime)
		}
	}
	return ""
}
