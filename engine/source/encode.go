package source

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/planast"
)

// maxExactInt is 2^53-1, the largest integer every JSON reader holds exactly.
const maxExactInt = 1<<53 - 1

// column describes one result column for encoding: its portable type and,
// for decimals, the declared scale (-1 when not declared).
type column struct {
	Type  planast.Type
	Scale int
}

// encodeValue applies the result encoding, the one rule every adapter and
// every result path (rows, profile ranges, samples) uses:
//
//   - nil stays nil (JSON null);
//   - integers are int64 when |v| ≤ 2^53-1, else their decimal digits as a
//     string; in a boolean column 0 and 1 are false and true;
//   - floats are float64 (JSON writes the shortest form that round-trips),
//     ±Inf are the strings "Infinity" and "-Infinity", NaN is nil; in a
//     decimal column a float stays a number only when it carries the value
//     exactly at the column's scale (see decimalValue), else it is a string;
//   - strings stay strings, even when they look like numbers, JSON or dates
//     (text-stored dates come back exactly as stored);
//   - time.Time is "YYYY-MM-DD" in a date column at midnight UTC, else
//     "YYYY-MM-DD HH:MM:SS[.fffffffff][±HH:MM]" (ISO 8601 with a space
//     separator, SQLite's own datetime text, so a value read back compares
//     equal with stored text); the offset is written unless UTC;
//   - []byte is standard base64 with padding;
//   - bool stays bool.
func encodeValue(v any, col column) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		if col.Type == planast.TypeBoolean && (x == 0 || x == 1) {
			return x == 1
		}
		return encodeInt(x)
	case int:
		return encodeValue(int64(x), col)
	case int32:
		return encodeValue(int64(x), col)
	case float64:
		switch {
		case math.IsNaN(x):
			return nil
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		case col.Type == planast.TypeDecimal:
			return decimalValue(x, col.Scale)
		}
		return x
	case float32:
		return encodeValue(float64(x), col)
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case time.Time:
		return formatTime(x, col.Type)
	case bool:
		return x
	}
	return v
}

func encodeInt(x int64) any {
	if x > maxExactInt || x < -maxExactInt {
		return strconv.FormatInt(x, 10)
	}
	return x
}

// decimalValue encodes a float read from a decimal column. With a known
// scale (≥ 0) the value is the number when the double is the nearest double
// to its decimal text at that scale and that text has at most 15 significant
// digits (so every decimal of that size round-trips); otherwise it is the
// shortest decimal text that reads back as the double, as a string. Without
// a scale the shortest text decides the same way.
func decimalValue(x float64, scale int) any {
	if scale >= 0 {
		s := strconv.FormatFloat(x, 'f', scale, 64)
		if back, err := strconv.ParseFloat(s, 64); err == nil && back == x && significantDigits(s) <= 15 {
			return x
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if significantDigits(s) <= 15 {
		return x
	}
	return s
}

// significantDigits counts the digits of a plain decimal text from the first
// non-zero digit on (trailing zeros count: they are part of the scale).
func significantDigits(s string) int {
	s = strings.TrimLeft(strings.TrimPrefix(s, "-"), "0.")
	return len(s) - strings.Count(s, ".")
}

// formatTime writes t as described on encodeValue.
func formatTime(t time.Time, typ planast.Type) string {
	_, offset := t.Zone()
	utc := offset == 0
	if typ == planast.TypeDate && utc && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	layout := "2006-01-02 15:04:05.999999999"
	if !utc {
		layout += "-07:00"
	}
	return t.Format(layout)
}

// valueType is the portable type of a value as the driver returned it, the
// fallback for result columns without a declared type (expressions).
func valueType(v any) planast.Type {
	switch v.(type) {
	case int64, int, int32:
		return planast.TypeInteger
	case float64, float32:
		return planast.TypeFloat
	case string:
		return planast.TypeText
	case []byte:
		return planast.TypeBlob
	case time.Time:
		return planast.TypeTimestamp
	case bool:
		return planast.TypeBoolean
	}
	return planast.TypeUnknown
}
