package cellfmt

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// Values print as stored: an exact decimal keeps every digit, a float is
// the shortest text that reads back to it whatever the column's type, in
// exponent form when tiny or huge.
func TestValue(t *testing.T) {
	dec, flt, unk := planast.TypeDecimal, planast.TypeFloat, planast.TypeUnknown
	for _, c := range []struct {
		in   any
		typ  planast.Type
		want string
	}{
		{nil, unk, "NULL"},
		{5.308, flt, "5.308"},
		{4.796, flt, "4.796"},
		{6.659999999999999, flt, "6.659999999999999"},
		{18.810000000000002, flt, "18.810000000000002"},
		{6.517142857142857, flt, "6.517142857142857"},
		{1265793.04, flt, "1265793.04"},
		{3.0, flt, "3"},
		{1e21, flt, "1e+21"},
		{1e20, flt, "100000000000000000000"},
		{12345678901234.5, flt, "12345678901234.5"},
		{123456789.12345678, flt, "123456789.12345678"},
		{0.30000000000000004, flt, "0.30000000000000004"},
		{0.30000000000000004, dec, "0.30000000000000004"},
		{0.30000000000000004, unk, "0.30000000000000004"},
		{1234567890123.45, dec, "1234567890123.45"},
		{1234567890123.45, unk, "1234567890123.45"},
		{123456789.123456, dec, "123456789.123456"},
		{1.0000000000000002, dec, "1.0000000000000002"}, // a decimal column prints what it holds, unrounded
		{0.004, flt, "0.004"},
		{0.004, dec, "0.004"},
		{1.5e-13, flt, "1.5e-13"},
		{5e-324, flt, "5e-324"},
		{-5e-324, dec, "-5e-324"},
		{1e-100, dec, "1e-100"},
		{1e-7, flt, "1e-7"},
		{0.00000015, flt, "1.5e-7"},
		{0.000001, flt, "0.000001"},
		{1e-20, flt, "1e-20"},
		{1e308, flt, "1e+308"},
		{1.7e308, flt, "1.7e+308"},
		{math.MaxFloat64, flt, "1.7976931348623157e+308"},
		{math.Inf(1), flt, "Infinity"},
		{math.Inf(-1), flt, "-Infinity"},
		{math.NaN(), flt, "NaN"},
		{int64(42), unk, "42"},
		{json.Number("12345678901234567890"), unk, "12345678901234567890"},
		{"1.8e308", dec, "1.8e308"},
		{"2016-07-04", unk, "2016-07-04"},
		{"infinity", planast.TypeDate, "infinity"},
	} {
		if got := Value(c.in, c.typ); got != c.want {
			t.Errorf("Value(%#v, %s) = %q, want %q", c.in, c.typ, got, c.want)
		}
	}
}

// From the threat: whatever the double, the display reads back to exactly
// that double (no digit dropped, not even one past the 15th), keeps its
// integer digits and stays short.
func TestFloatNeverDropsDigits(t *testing.T) {
	for _, x := range []float64{1e15 - 0.5, 999999999999999.9, 123456789012345.6, 123456789.12345678, 0.1 + 0.2, 1.0 / 3, 2.0 / 3 * 1e14, 1e-300, -7.25e-9, 4503599627370497, 5e-324} {
		s := Float(x)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%v: %q does not parse", x, s)
		}
		if back != x {
			t.Errorf("%v printed as %q, which reads back %v", x, s, back)
		}
		if intDigits(s) < intDigits(strconv.FormatFloat(math.Trunc(x), 'f', 0, 64)) {
			t.Errorf("%v lost integer digits: %q", x, s)
		}
		if len(s) > 25 {
			t.Errorf("%v printed as %d characters: %q", x, len(s), s)
		}
	}
}

// intDigits counts the digits before the point of a plain decimal text.
func intDigits(s string) int {
	n := 0
	for _, r := range s {
		if r == '.' {
			break
		}
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}
