package schemactx

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
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
	from, to, unit, ok := EpochRange(c)
	if !ok {
		return ""
	}
	read := "FROM_EPOCH_SECONDS"
	if unit == "milliseconds" {
		read = "FROM_EPOCH_SECONDS(x / 1000)"
	}
	return fmt.Sprintf(" (Unix %s? %s: %s to %s)", unit, read, from.Format("2006-01-02"), to.Format("2006-01-02"))
}

// EpochRange is the span of number column c read as Unix times, in UTC,
// and their unit ("seconds" or "milliseconds"), when c is named like a
// time and its profiled range reads as one (1973 to 2100).
func EpochRange(c *schema.Column) (from, to time.Time, unit string, ok bool) {
	p := c.Profile
	if p == nil || !c.Type.IsNumeric() || p.Min == nil || p.Max == nil {
		return from, to, "", false
	}
	named := false
	for _, w := range lex.SplitWords(c.Name) {
		if timeWords[strings.ToLower(w)] {
			named = true
		}
	}
	lo, err1 := strconv.ParseFloat(fmt.Sprint(p.Min), 64)
	hi, err2 := strconv.ParseFloat(fmt.Sprint(p.Max), 64)
	if !named || err1 != nil || err2 != nil {
		return from, to, "", false
	}
	unit, div := "seconds", 1.0
	switch {
	case lo >= 1e8 && hi < 4.1e9:
	case lo >= 1e11 && hi < 4.1e12:
		unit, div = "milliseconds", 1000
	default:
		return from, to, "", false
	}
	at := func(x float64) time.Time { return time.Unix(int64(math.Floor(x/div)), 0).UTC() }
	return at(lo), at(hi), unit, true
}
