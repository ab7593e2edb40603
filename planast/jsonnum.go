package planast

import (
	"strconv"
	"strings"
)

// jsonInt reads a JSON number as a 64-bit integer. Besides plain digits it
// takes the integral spellings JSON Schema counts as integers (10.0, 1e3,
// 1500e-1; not 15e-1), so that a plan a host validated against the schema
// is not refused for writing a limit as 10.0.
func jsonInt(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			e = 1 << 30 // beyond any int64; the sign of e decides below
			if strings.HasPrefix(s[i+1:], "-") {
				e = -e
			}
		}
		s, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return 0, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if digits == "" {
		return 0, true
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	if exp < 0 || exp > 19 || len(digits)+exp > 19 {
		return 0, false
	}
	text := digits + strings.Repeat("0", exp)
	if neg {
		text = "-" + text
	}
	n, err := strconv.ParseInt(text, 10, 64)
	return n, err == nil
}
