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
// (planast.UnixSpan: both ends in one unit), in UTC, with their unit and
// FROM_EPOCH_SECONDS's divisor, when c is named like a time.
func EpochRange(c *schema.Column) (from, to time.Time, unit, per string, ok bool) {
	p := c.Profile
	if p == nil || !c.Type.IsNumeric() || !slices.ContainsFunc(lex.SplitWords(c.Name), func(w string) bool { return timeWords[strings.ToLower(w)] }) {
		return from, to, "", "", false
	}
	return planast.UnixSpan(p.Min, p.Max)
}

// UnixTimesNote is "4 values are Unix seconds, 2024-02-01 to 2025-01-01,
// outside the range and read as NULL; to count them read COALESCE(x,
// FROM_EPOCH_SECONDS(CAST(x AS text)))" for a date or timestamp
// column that also stores Unix times as numbers (SQLite: a loader wrote
// time() beside ISO text), else "": its range is of its dates alone, and
// a planner comparing them as text or by that range missed those rows.
func UnixTimesNote(c *schema.Column) string {
	if !c.Type.IsTemporal() {
		return ""
	}
	n, from, to, unit, per, ok := c.Profile.UnixTimes()
	if !ok {
		return ""
	}
	// the column reads as a timestamp, and its text is the stored digits
	read := "FROM_EPOCH_SECONDS(CAST(x AS text))"
	if per != "" {
		read = "FROM_EPOCH_SECONDS(CAST(CAST(x AS text) AS decimal)" + per + ")"
	}
	where := "outside the range and "
	if c.Profile.Min == nil {
		where = "" // no date beside them: no range
	}
	return fmt.Sprintf("%d values are Unix %s, %s to %s, %sread as NULL; to count them read COALESCE(x, %s)", n, unit, from.Format("2006-01-02"), to.Format("2006-01-02"), where, read)
}

// SpellingsNote is "timestamps written two ways, 12 with 'T' and 288
// with a space: text orders 'T' after ' ', so compare, order or take
// MIN/MAX of CAST(x AS timestamp)" for a text column of timestamps in
// both spellings (schema.ColumnProfile.Spellings), else "": a planner
// that compared the text with '2024-01-03 23:59:59' left out that day's
// 'T' rows, and MAX of the text was no latest.
func SpellingsNote(c *schema.Column) string {
	p := c.Profile
	if c.Type != planast.TypeText || p == nil || p.Spellings == nil || p.Spellings.T == 0 || p.Spellings.Space == 0 {
		return ""
	}
	return fmt.Sprintf("timestamps written two ways, %d with 'T' and %d with a space: text orders 'T' after ' ', so compare, order or take MIN/MAX of CAST(x AS timestamp)",
		p.Spellings.T, p.Spellings.Space)
}

// UnitNote is `its unit is in weight_unit ["kg","lb"]: convert…` for a numeric
// column of t whose unit a column beside it holds in several spellings
// or units (lex.UnitColumn), else "": a planner that summed or compared
// the numbers as they are added kilograms to pounds.
func UnitNote(t *schema.Table, c *schema.Column) string {
	if !c.Type.IsNumeric() {
		return ""
	}
	for i := range t.Columns {
		u := &t.Columns[i]
		if u == c || u.Type != planast.TypeText || !lex.UnitColumn(u.Name, c.Name) || u.Profile == nil || !u.Profile.AllValues {
			continue
		}
		if len(u.Profile.SampleValues) < 2 {
			return ""
		}
		// the units as data, in a JSON list as every value the context shows
		return fmt.Sprintf("its unit is in %s %s: convert before a sum, average or comparison", u.Name, jsonList(u.Profile.SampleValues))
	}
	return ""
}
