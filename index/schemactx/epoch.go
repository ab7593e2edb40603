package schemactx

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// timeWords name columns that hold when something happened.
var timeWords = map[string]bool{"at": true, "on": true, "time": true, "ts": true, "epoch": true, "date": true, "when": true,
	"unix": true, "created": true, "updated": true, "modified": true, "started": true, "ended": true, "hired": true, "timestamp": true}

// EpochNote is " (Unix seconds? FROM_EPOCH_SECONDS: 2023-10-01 to
// 2024-07-26)" for a number column EpochRange reads as Unix times, else
// "": a planner that sees 1696118400 knows neither that it is a date nor
// which dates the data holds, and compared it with a date literal or left
// it out.
func EpochNote(c *schema.Column) string {
	from, to, unit, per, ok := EpochRange(c)
	if !ok {
		return ""
	}
	read := "FROM_EPOCH_SECONDS"
	if per != "" {
		read = "FROM_EPOCH_SECONDS(x" + per + ")"
	}
	return fmt.Sprintf(" (Unix %s? %s: %s to %s)", unit, read, from.Format("2006-01-02"), to.Format("2006-01-02"))
}

// EpochRange is the span of number column c read as Unix times
// (planast.UnixTime: both ends in one unit), in UTC, with their unit and
// FROM_EPOCH_SECONDS's divisor, when c is named like a time.
func EpochRange(c *schema.Column) (from, to time.Time, unit, per string, ok bool) {
	p := c.Profile
	if p == nil || !c.Type.IsNumeric() || !slices.ContainsFunc(lex.SplitWords(c.Name), func(w string) bool { return timeWords[strings.ToLower(w)] }) {
		return from, to, "", "", false
	}
	from, unit, per, ok1 := planast.UnixTime(p.Min)
	to, unit2, _, ok2 := planast.UnixTime(p.Max)
	if !ok1 || !ok2 || unit != unit2 {
		return from, to, "", "", false
	}
	return from, to, unit, per, true
}
