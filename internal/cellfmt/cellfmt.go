// Package cellfmt formats one result value for text. The result table of
// the tools and the engine's one-line answer summary both print values
// through Value, so a number a host quotes from the summary is the number
// the table shows (never rounded more): for example 5.308 is "5.308" in
// both, 6.659999999999999 is "6.66" in both, and NULL is "NULL".
//
// The structured result keeps the exact values; this is display only.
package cellfmt

import (
	"fmt"
	"math"
	"strconv"
)

// Value renders v: NULL for nil; a float64 to 12 significant digits, which
// hides binary noise such as 6.659999999999999 without rounding a stored
// decimal (no exponent: 1e21 prints in full); anything else as fmt.Sprint
// prints it (strings as stored, json.Number as its text).
func Value(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		case math.Abs(x) >= 1e21:
			return strconv.FormatFloat(x, 'g', -1, 64) // shortest text that reads back the same
		case math.Abs(x) >= 1e12:
			// twelve significant digits would drop integer digits: the
			// shortest text that reads back to the same value instead
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		// display only: 12 significant digits hide binary noise such as
		// 6.659999999999999 and never drop an integer digit here (|x| <
		// 1e12) nor turn a non-zero into zero (significant, not decimal,
		// digits); the structured result keeps the exact value
		g, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
		return strconv.FormatFloat(g, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
