package sqlitecopy

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/planast"
)

// convertValue converts one SQLite value (as modernc.org/sqlite returns it)
// to the Go value of target kind k, or reports false when it does not fit.
// Decimals come back as *big.Int holding the unscaled value.
func convertValue(v any, k copyColumn) (any, bool) {
	switch k.Kind {
	case kindBigint:
		x, ok := v.(int64)
		return x, ok
	case kindDouble:
		switch x := v.(type) {
		case float64:
			return x, true
		case int64:
			return float64(x), x <= source.MaxExactInt && x >= -source.MaxExactInt
		}
	case kindDecimal:
		var text string
		switch x := v.(type) {
		case int64:
			text = strconv.FormatInt(x, 10) + "." + strings.Repeat("0", k.Scale)
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, false
			}
			text = strconv.FormatFloat(x, 'f', k.Scale, 64)
		default:
			return nil, false
		}
		unscaled, ok := new(big.Int).SetString(strings.Replace(strings.TrimSuffix(text, "."), ".", "", 1), 10)
		digits := len(strings.TrimLeft(new(big.Int).Abs(unscaled).String(), "0"))
		return unscaled, ok && digits <= k.Prec
	case kindDate:
		t, ok := toTime(v)
		return t, ok && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
	case kindTimestamp:
		return toTime(v)
	case kindBool:
		switch x := v.(type) {
		case bool:
			return x, true
		case int64:
			return x == 1, x == 0 || x == 1
		}
	case kindBlob:
		switch x := v.(type) {
		case []byte:
			return x, true
		case string:
			return []byte(x), true
		}
	case kindBytes:
		x, ok := v.([]byte)
		return x, ok
	case kindText:
		return toText(v), true
	}
	return nil, false
}

// timeLayouts are the text forms of dates and timestamps a copy reads.
var timeLayouts = []string{
	"2006-01-02", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
}

// toTime reads a time.Time or an ISO date or timestamp text, as UTC.
func toTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), true
	case string:
		for _, l := range timeLayouts {
			if t, err := time.Parse(l, x); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// toText writes any SQLite value as text: numbers as SQLite's CAST would
// (a whole real keeps ".0"), bytes as their (valid UTF-8) text, times in
// SQLite's datetime form.
func toText(v any) string {
	switch x := v.(type) {
	case string:
		return strings.ToValidUTF8(x, "\uFFFD")
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return s
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return strings.ToValidUTF8(string(x), "\uFFFD")
	case time.Time:
		return source.FormatTime(x, planast.TypeTimestamp)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}
