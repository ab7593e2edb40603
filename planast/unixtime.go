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
