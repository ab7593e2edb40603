package schema

import (
	"encoding/json"
	"testing"
)

// A profile's integer bound reads back from its stored JSON as a float:
// Whole gives the same number either way, and refuses what is not a whole
// number exactly (a fraction, a float past 2^53, text).
func TestWhole(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want int64
		ok   bool
	}{
		{int64(-7), -7, true}, {int32(12), 12, true}, {3, 3, true}, {float64(40), 40, true},
		{json.Number("9007199254740993"), 9007199254740993, true},
		{2.5, 0, false}, {float64(1 << 60), 0, false}, {json.Number("1.5"), 0, false}, {"12", 0, false}, {nil, 0, false},
	} {
		got, ok := Whole(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("Whole(%#v) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
