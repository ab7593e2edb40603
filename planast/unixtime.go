package planast

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// EpochFirst and EpochEnd bound FROM_EPOCH_SECONDS: the Unix times of
// 0001-01-01 00:00:00 and of 10000-01-01 00:00:00. Outside them it is
// NULL on every engine (SQLite's dates stop at 9999; PostgreSQL would fail
// the query).
const EpochFirst, EpochEnd = -62135596800, 253402300800

// UnixTime is a stored number (an int64, float64, json.Number or its
// text, as profiles keep values) read as a Unix time: seconds of 1973 to
// 2099, or milliseconds or microseconds of those years, which exports
// write as 13 and 16 digits. Per is what FROM_EPOCH_SECONDS's argument is
// divided by ("" for seconds, " / 1000", " / 1000000"); ok is false for a
// value that reads as none of them. The one reading of "looks like a Unix
// time" for every warning and note that names FROM_EPOCH_SECONDS.
func UnixTime(v any) (at time.Time, unit, per string, ok bool) {
	if v == nil {
		return at, "", "", false
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(fmt.Sprint(v)), 64)
	if err != nil {
		return at, "", "", false
	}
	for _, u := range []struct {
		name, per string
		div       float64
	}{{"seconds", "", 1}, {"milliseconds", " / 1000", 1e3}, {"microseconds", " / 1000000", 1e6}} {
		if s := x / u.div; s >= 1e8 && s < 4.1e9 {
			return time.Unix(int64(math.Floor(s)), 0).UTC(), u.name, u.per, true
		}
	}
	return at, "", "", false
}

// UnixSpan reads the least and greatest of some stored numbers as Unix
// times (UnixTime), both in one unit, so every number between them reads
// in it too: the dates they span, in UTC, with the unit and
// FROM_EPOCH_SECONDS's divisor. ok is false when either end reads as no
// Unix time or the two read in different units.
func UnixSpan(least, greatest any) (from, to time.Time, unit, per string, ok bool) {
	from, unit, per, ok1 := UnixTime(least)
	to, unit2, _, ok2 := UnixTime(greatest)
	if !ok1 || !ok2 || unit != unit2 {
		return from, to, "", "", false
	}
	return from, to, unit, per, true
}

// UnixReading is the one reading of values that are dates beside Unix
// times (a loader wrote time() next to ISO text): x as a date or
// timestamp and, where that is NULL, its text as Unix times divided by
// per (UnixTime's: " / 1000", "" for seconds). x is a date or timestamp
// column of type t read as its type (to ""): COALESCE(x,
// FROM_EPOCH_SECONDS(CAST(x AS text))); or text cast to to (CastDate,
// CastTimestamp): COALESCE(CAST(x AS to), FROM_EPOCH_SECONDS(x)). A
// divided text goes through a decimal first, as text takes no arithmetic.
// The time is cast to a date where the column or the cast is one. x
// appears twice: the reading is for writing as plan JSON (JSON), not for
// a plan to hold.
func UnixReading(x Expr, t Type, to CastType, per string) Expr {
	read, text := x, x
	if to == "" {
		text = &Cast{Type: CastText, Expr: x}
	} else {
		read = &Cast{Type: to, Expr: x}
	}
	arg := text
	if d, err := strconv.ParseInt(strings.TrimPrefix(per, " / "), 10, 64); per != "" && err == nil {
		arg = &Binary{Op: OpDiv, Left: &Cast{Type: CastDecimal, Expr: text}, Right: &Literal{Type: TInteger, Int: d}}
	}
	var epoch Expr = &Func{Name: "FROM_EPOCH_SECONDS", Args: []Expr{arg}}
	if to == CastDate || to == "" && t == TypeDate {
		epoch = &Cast{Type: CastDate, Expr: epoch}
	}
	return &Func{Name: "COALESCE", Args: []Expr{read, epoch}}
}
