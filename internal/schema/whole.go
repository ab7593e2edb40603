package schema

import (
	"encoding/json"
	"math"
)

// Whole is v as an int64 when it is a whole number as a profile or a
// driver gives one: int64 (as profiled, and from every engine's driver
// for an integer), int32 and int, float64 when whole and exact (a profile
// read back from a stored snapshot's JSON), json.Number. Anything else,
// and a float beyond 2^53, is false.
func Whole(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int:
		return int64(x), true
	case float64:
		return int64(x), x == math.Trunc(x) && math.Abs(x) <= 1<<53
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}
