package values

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// yearPattern is a four-digit number standing alone in a question.
var yearPattern = regexp.MustCompile(`(^|[^0-9A-Za-z_.])([12][0-9]{3})($|[^0-9A-Za-z_])`)

// timeWords name a column that holds dates or years whatever its type
// ("birth_date", "Year" stored as text, "release_time").
var timeWords = map[string]bool{"date": true, "year": true, "time": true, "timestamp": true}

// YearColumns are the columns ok permits that a year the question
// names (a four-digit number 1000..2999: "in 2023", "born before 1950",
// "1976/1/29") may filter: a filter on a year is as much a value the
// question names as a stored string, but numbers and dates are not value
// documents. A column qualifies by its profile when it has one (an integer
// range within the years 1000..2999, or a date range, holding the year);
// without a range (a database with no rows to profile, a year stored as
// text) a temporal type or a name with a time word (timeWords) decides.
// Package index leaves keys out through ok.
func YearColumns(snap *schema.Snapshot, question string, ok func(t, c int) bool) [][2]int {
	var years []int64
	for _, m := range yearPattern.FindAllStringSubmatch(question, -1) {
		if y, err := strconv.ParseInt(m[2], 10, 64); err == nil && y >= 1000 && y <= 2999 {
			years = append(years, y)
		}
	}
	if len(years) == 0 {
		return nil
	}
	var out [][2]int
	for t, tb := range snap.Tables {
		for c, col := range tb.Columns {
			if !ok(t, c) {
				continue
			}
			lo, hi, ranged := yearRange(col.Profile)
			if !ranged {
				temporal := col.Type.IsTemporal() || (col.Profile != nil && col.Profile.Temporal != "")
				named := false
				for _, w := range lex.SplitWords(col.Name) {
					named = named || timeWords[w]
				}
				if temporal || named {
					out = append(out, [2]int{t, c})
				}
				continue
			}
			for _, y := range years {
				if lo <= y && y <= hi {
					out = append(out, [2]int{t, c})
					break
				}
			}
		}
	}
	return out
}

// yearRange is the range of years a profiled column holds: an integer
// range (a year column when within 1000..2999; any other integer or a
// real range holds no year, lo > hi), or the years of a date range (a
// time, or text starting with a four-digit year). ranged is false when
// the profile has no range (no profile, no rows, plain text).
func yearRange(p *schema.ColumnProfile) (lo, hi int64, ranged bool) {
	if p == nil || p.Min == nil || p.Max == nil {
		return 0, 0, false
	}
	year := func(v any) (int64, bool) {
		switch x := v.(type) {
		case int64:
			return x, true
		case time.Time:
			return int64(x.Year()), true
		case string:
			if len(x) >= 4 {
				if y, err := strconv.ParseInt(x[:4], 10, 64); err == nil {
					return y, true
				}
			}
		}
		return 0, false
	}
	switch p.Min.(type) {
	case float64, float32, json.Number:
		// A year stored as a real (2008.0) is a year column too; any
		// other real range holds no year.
		lo, okLo := wholeNumber(p.Min)
		hi, okHi := wholeNumber(p.Max)
		if !okLo || !okHi || lo < 1000 || hi > 2999 {
			return 1, 0, true
		}
		return lo, hi, true
	}
	lo, okLo := year(p.Min)
	hi, okHi := year(p.Max)
	if !okLo || !okHi {
		return 0, 0, false
	}
	if lo < 1000 || hi > 2999 {
		return 1, 0, true
	}
	return lo, hi, true
}

// wholeNumber is a real profile bound that is a whole number, as int64.
func wholeNumber(v any) (int64, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	case json.Number: // a decimal profile bound, 2008.00
		g, err := x.Float64()
		if err != nil {
			return 0, false
		}
		f = g
	default:
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return 0, false
	}
	return int64(f), true
}
