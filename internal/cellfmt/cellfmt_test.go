package cellfmt

import (
	"encoding/json"
	"math"
	"testing"
)

// Values print as stored, without rounding a decimal a host would quote:
// only binary noise past 12 significant digits goes.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, "NULL"},
		{5.308, "5.308"},
		{4.796, "4.796"},
		{6.659999999999999, "6.66"},
		{1265793.04, "1265793.04"},
		{3.0, "3"},
		{1e21, "1e+21"},
		{1e20, "100000000000000000000"},
		{12345678901234.5, "12345678901234.5"},
		{1234567890123.45, "1234567890123.45"},
		{0.004, "0.004"},
		{1.5e-13, "0.00000000000015"},
		{1.7e308, "1.7e+308"},
		{math.Inf(1), "Infinity"},
		{math.NaN(), "NaN"},
		{int64(42), "42"},
		{json.Number("12345678901234567890"), "12345678901234567890"},
		{"2016-07-04", "2016-07-04"},
	} {
		if got := Value(c.in); got != c.want {
			t.Errorf("Value(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}
