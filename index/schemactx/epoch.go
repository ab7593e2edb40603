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
// 2024-07-26)" for a number column named like a time whose profiled
// range reads as Unix seconds (1973 to 2100) or milliseconds of those
// years, else "": a planner that sees 1696118400 knows neither that it is
// a date nor which dates the data holds, and compared it with a date
// literal or left it out.
func EpochNote(c *schema.Column) string {
	p := c.Profile
	if p == nil || !c.Type.IsNumeric() || p.Min == nil || p.Max == nil {
		return ""
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
		return ""
	}
	unit, read, div := "seconds", "FROM_EPOCH_SECONDS", 1.0
	switch {
	case lo >= 1e8 && hi < 4.1e9:
	case lo >= 1e11 && hi < 4.1e12:
		unit, read, div = "milliseconds", "FROM_EPOCH_SECONDS(x / 1000)", 1000
	default:
		return ""
	}
	day := func(x float64) string {
		return time.Unix(int64(math.Floor(x/div)), 0).UTC().Format("2006-01-02")
	}
	return fmt.Sprintf(" (Unix %s? %s: %s to %s)", unit, read, day(lo), day(hi))
}
