package schemactx

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Unread counts the values of a date or timestamp column that its type
// cannot read and that UnixTimesNote does not already name as Unix times
// ('15/01/2024' or '2024-02-30' in a SQLite DATE column): how many, one
// of them (nil when the profile keeps none), and whether Unix times are
// named apart (other). A plan reads them as NULL and the profiled range
// leaves them out, so the range's end need not be the latest date the
// column holds: '15/01/2024' was the newest purchase beside a range
// ending in 2023. The example is text when numbers are named apart: the
// profile's own is the least value, a number then.
func Unread(c *schema.Column) (n int64, ex any, other bool) {
	p := c.Profile
	if !c.Type.IsTemporal() || p == nil || p.Invalid == 0 {
		return 0, nil, false
	}
	n, ex = p.Invalid, p.InvalidExample
	if UnixTimesNote(c) != "" {
		n, other = n-p.Numbers.Count, true
		if _, text := ex.(string); !text {
			ex = nil
			for _, v := range p.SampleValues {
				if s, ok := v.(string); ok && (len(s) < 10 || !planast.IsDateLiteral(s[:10])) {
					ex = s
					break
				}
			}
		}
	}
	if n <= 0 {
		return 0, nil, false
	}
	return n, ex, other
}

// UnreadNote is `3 values are not ISO dates, such as "15/01/2024": read
// as NULL and outside the range` for a date or timestamp column that
// holds values its type cannot read (Unread; "1 other value" beside the
// Unix times UnixTimesNote names), else "": a planner shown the range
// alone took its end for the latest date and read the column as its type.
func UnreadNote(c *schema.Column) string {
	n, ex, other := Unread(c)
	if n == 0 {
		return ""
	}
	one, many := "an ISO date", "ISO dates"
	if c.Type == planast.TypeTimestamp {
		one, many = "an ISO date or timestamp", "ISO dates or timestamps"
	}
	others := ""
	if other {
		others = " other"
	}
	what := fmt.Sprintf("%d%s values are not %s", n, others, many)
	if n == 1 {
		what = fmt.Sprintf("1%s value is not %s", others, one)
	}
	if ex != nil {
		what += ", such as " + exampleText(ex)
	}
	where := " and outside the range"
	if c.Profile.Min == nil {
		where = "" // no value read: no range
	}
	return what + ": read as NULL" + where
}

// exampleText is a stored value as JSON, a string cut at
// MaxExampleBytes as the context's examples are.
func exampleText(v any) string {
	if s, ok := v.(string); ok {
		v = planast.Truncate(s, MaxExampleBytes)
	}
	return strings.TrimSuffix(jsonList([]any{v})[1:], "]")
}
