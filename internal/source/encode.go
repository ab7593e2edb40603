package source

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/cellfmt"

	"github.com/nl2sql/nl2sql/planast"
)

// MaxExactInt is 2^53-1, the largest integer every JSON reader holds exactly.
const MaxExactInt = 1<<53 - 1

// column describes one result column for encoding: its portable type and,
// for decimals, the declared scale (-1 when not declared). TZ marks a
// timestamp-with-time-zone column, whose values always carry an offset.
// Decl is the engine's type name as reported, upper-cased, for adapters
// whose driver values need it (a DuckDB UUID arrives as 16 bytes).
type Column struct {
	Type  planast.Type
	Scale int
	TZ    bool
	Decl  string
}

// encodeWith applies the result encoding with an adapter's rules: col
// describes a column from its reported type name, val converts one driver
// value (the engine's own types first, then EncodeValue). A column whose
// type name is empty or unknown takes its type from its first non-NULL
// encoded value.
func (r *RawResult) EncodeWith(col func(decl string) Column, val func(v any, c Column) any) *Result {
	res := &Result{Columns: r.Names, ColumnTypes: make([]planast.Type, len(r.Names)), Rows: make([][]any, 0, len(r.Rows)), Truncated: r.Truncated}
	cols := make([]Column, len(r.Names))
	for i, decl := range r.Decls {
		cols[i] = col(decl)
	}
	for _, row := range r.Rows {
		out := make([]any, len(row))
		for i, v := range row {
			out[i] = val(v, cols[i])
		}
		res.Rows = append(res.Rows, out)
	}
	for i, c := range cols {
		res.ColumnTypes[i] = c.Type
		if c.Type == planast.TypeUnknown && r.Decls[i] == "" {
			res.ColumnTypes[i] = FirstValueType(res.Rows, i)
		}
	}
	return res
}

// EncodeValue applies the result encoding, the one rule every adapter and
// every result path (rows, profile ranges, samples) uses:
//
//   - nil stays nil (JSON null);
//   - integers (any Go integer type, *big.Int) are int64 when |v| ≤ 2^53-1,
//     else their decimal digits as a string; in a boolean column 0 and 1 are
//     false and true; in a decimal column of declared scale s > 0 (SQLite
//     stores 349.00 as the integer 349) the decimal at that scale, as below;
//   - floats are float64 (JSON writes the shortest form that round-trips; a
//     float32 becomes the float64 of its own shortest form, 0.1 not
//     0.10000000149011612),
//     ±Inf are the strings "Infinity" and "-Infinity", NaN the string
//     "NaN" (never NULL: NaN is a value, and NULL means none); in a
//     decimal column a float stays a number only when it carries the value
//     exactly at the column's scale, written at that scale (a json.Number,
//     see decimalValue), else it is a string;
//   - an exact decimal (PostgreSQL numeric, DuckDB DECIMAL: DecimalText)
//     keeps the scale the engine returns: a json.Number of its text
//     ("349.00", which JSON writes as the number 349.00) up to 15
//     significant digits, else the text as a string;
//   - strings stay strings, even when they look like numbers, JSON or dates
//     (text-stored dates come back exactly as stored);
//   - time.Time is "YYYY-MM-DD" in a date column at midnight UTC, else
//     "YYYY-MM-DD HH:MM:SS[.fffffffff][±HH:MM]" (ISO 8601 with a space
//     separator, SQLite's own datetime text, so a value read back compares
//     equal with stored text); the offset is written unless UTC, and always
//     in a TZ column, whose values are written in UTC ("+00:00");
//   - []byte is standard base64 with padding;
//   - bool stays bool.
func EncodeValue(v any, col Column) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		if col.Type == planast.TypeBoolean && (x == 0 || x == 1) {
			return x == 1
		}
		if col.Type == planast.TypeDecimal && col.Scale > 0 {
			// SQLite keeps 349.00 in a NUMERIC(10,2) column as the integer
			// 349: shown at the declared scale, as the other engines do
			return DecimalText(strconv.FormatInt(x, 10) + "." + strings.Repeat("0", col.Scale))
		}
		return encodeInt(x)
	case int:
		return EncodeValue(int64(x), col)
	case int32:
		return EncodeValue(int64(x), col)
	case int16:
		return EncodeValue(int64(x), col)
	case int8:
		return EncodeValue(int64(x), col)
	case uint8:
		return EncodeValue(int64(x), col)
	case uint16:
		return EncodeValue(int64(x), col)
	case uint32:
		return EncodeValue(int64(x), col)
	case uint64:
		if x > MaxExactInt {
			return strconv.FormatUint(x, 10)
		}
		return EncodeValue(int64(x), col)
	case uint:
		return EncodeValue(uint64(x), col)
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			return EncodeValue(x.Int64(), col)
		}
		return x.String()
	case float64:
		if s, ok := cellfmt.Special(x); ok {
			return s
		}
		if col.Type == planast.TypeDecimal {
			return decimalValue(x, col.Scale)
		}
		return x
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		if math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) {
			f = float64(x)
		}
		return EncodeValue(f, col)
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case time.Time:
		if col.TZ {
			return x.UTC().Format("2006-01-02 15:04:05.999999999-07:00")
		}
		return FormatTime(x, col.Type)
	case bool:
		return x
	}
	return v
}

func encodeInt(x int64) any {
	if x > MaxExactInt || x < -MaxExactInt {
		return strconv.FormatInt(x, 10)
	}
	return x
}

// decimalValue encodes a float read from a decimal column. With a known
// scale (≥ 0) the value is the number written at that scale (json.Number
// "12.50") when the double is the nearest double to its decimal text at
// that scale and that text has at most 15 significant digits (so every
// decimal of that size round-trips); otherwise it is the
// shortest decimal text that reads back as the double, as a string. Without
// a scale the shortest text decides the same way.
func decimalValue(x float64, scale int) any {
	if scale >= 0 {
		s := strconv.FormatFloat(x, 'f', scale, 64)
		if back, err := strconv.ParseFloat(s, 64); err == nil && back == x && significantDigits(s) <= 15 {
			return json.Number(s)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if significantDigits(s) <= 15 {
		return x
	}
	return s
}

// DecimalText encodes an exact decimal read as plain text ("-12.50", "0.10",
// "12345678901234567.89", at the engine's scale): a json.Number of that very
// text when it has at most 15 significant digits (trailing zeros of the
// scale included), so JSON writes the number at the engine's scale (349.00,
// not 349) and a reader's double carries it exactly, else the text itself
// as a string. "NaN", "Infinity" and "-Infinity" stay strings.
func DecimalText(s string) any {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return s
	}
	if significantDigits(s) <= 15 && plainDecimal(s) {
		return json.Number(s)
	}
	return s
}

// plainDecimal reports whether s is a decimal as JSON writes a number: an
// optional minus, digits without a needless leading zero, an optional
// fraction ("-0.50", "349.00", "12").
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || len(whole) > 1 && whole[0] == '0' || dot && frac == "" {
		return false
	}
	return strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == ""
}

// UnscaledText writes the decimal unscaled × 10^-scale as plain text with
// exactly scale digits after the point ("-0.05" for -5 at scale 2).
func UnscaledText(unscaled *big.Int, scale int) string {
	digits := new(big.Int).Abs(unscaled).String()
	sign := ""
	if unscaled.Sign() < 0 {
		sign = "-"
	}
	if scale <= 0 {
		return sign + digits + strings.Repeat("0", -scale)
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}

// FormatInterval writes an interval of months, days and microseconds as an
// ISO 8601 duration, as PostgreSQL's IntervalStyle iso_8601 does:
// "P1Y2M3DT4H5M6.5S", "P-3D", "PT0S" for zero. Each part keeps its own sign.
func FormatInterval(months, days int64, micros int64) string {
	if months == 0 && days == 0 && micros == 0 {
		return "PT0S"
	}
	var b strings.Builder
	b.WriteByte('P')
	if y := months / 12; y != 0 {
		fmt.Fprintf(&b, "%dY", y)
	}
	if m := months % 12; m != 0 {
		fmt.Fprintf(&b, "%dM", m)
	}
	if days != 0 {
		fmt.Fprintf(&b, "%dD", days)
	}
	if micros != 0 {
		b.WriteByte('T')
		h := micros / 3_600_000_000
		rest := micros % 3_600_000_000
		min := rest / 60_000_000
		us := rest % 60_000_000
		if h != 0 {
			fmt.Fprintf(&b, "%dH", h)
		}
		if min != 0 {
			fmt.Fprintf(&b, "%dM", min)
		}
		if us != 0 {
			b.WriteString(unscaledSeconds(us))
			b.WriteByte('S')
		}
	}
	return b.String()
}

// unscaledSeconds writes microseconds as seconds without trailing zeros:
// "6", "6.5", "-0.000001".
func unscaledSeconds(us int64) string {
	s := UnscaledText(big.NewInt(us), 6)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// FormatTimeOfDay writes a time of day given in microseconds since midnight
// as "HH:MM:SS[.ffffff]" (trailing zeros of the fraction dropped), with
// offset ("+HH:MM") appended when withOffset, offsetSeconds east of UTC.
func FormatTimeOfDay(micros int64, withOffset bool, offsetSeconds int) string {
	t := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(micros) * time.Microsecond)
	s := t.Format("15:04:05.999999")
	if micros >= 24*3_600_000_000 {
		s = "24:00:00" // PostgreSQL's time '24:00'
	}
	if withOffset {
		sign := '+'
		if offsetSeconds < 0 {
			sign, offsetSeconds = '-', -offsetSeconds
		}
		s += fmt.Sprintf("%c%02d:%02d", sign, offsetSeconds/3600, offsetSeconds/60%60)
	}
	return s
}

// significantDigits counts the digits of a plain decimal text from the first
// non-zero digit on (trailing zeros count: they are part of the scale).
func significantDigits(s string) int {
	s = strings.TrimLeft(strings.TrimPrefix(s, "-"), "0.")
	return len(s) - strings.Count(s, ".")
}

// sqliteTimeLayouts are the ISO shapes the SQLite driver reads as a time in
// a column declared DATE, DATETIME or TIMESTAMP (a trailing "Z" cut off
// first), in its order.
var sqliteTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

// TemporalText encodes text s that a result column of portable type t
// (date or timestamp) holds, as the time the driver would have read from a
// declared column: SQLite returns MIN(OrderDate) or a CASE over dates as the
// stored text ('2016-07-04') while the column itself comes back as a time
// ("2016-07-04 00:00:00"), so one value would show two ways. Text in no ISO
// shape, and any other type, stays as it is.
func TemporalText(s string, t planast.Type) any {
	if t != planast.TypeDate && t != planast.TypeTimestamp {
		return s
	}
	ts, _ := strings.CutSuffix(s, "Z")
	for _, l := range sqliteTimeLayouts {
		if tm, err := time.Parse(l, ts); err == nil {
			return FormatTime(tm, t)
		}
	}
	return s
}

// FormatTime writes t as described on EncodeValue.
func FormatTime(t time.Time, typ planast.Type) string {
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
	case int64, int, int32, int16, int8, uint64, uint32, uint16, uint8, uint, *big.Int:
		return planast.TypeInteger
	case float64, float32:
		return planast.TypeFloat
	case json.Number: // an exact decimal (DecimalText)
		return planast.TypeDecimal
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

// UUIDText writes 16 bytes as a UUID's canonical text.
func UUIDText(b []byte) string {
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// JSONText writes a nested value (lists, maps, structs, decoded JSON) as
// JSON text, each scalar element encoded by val first.
func JSONText(v any, val func(any, Column) any) string {
	// without encoding/json's HTML escaping: a stored "</rows>" or "A & B"
	// is written as itself, not as \u003c/rows\u003e, which a reader of
	// the value (and of its table cell) takes for other text
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Nested(v, val)); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Nested applies val to the scalars of a nested value ([]any and
// map[string]any, walked here); nil, bool and string stay as they are. An
// adapter whose driver has container types of its own turns them into
// these in val (see the duckdb package's duckNestedValue).
func Nested(v any, val func(any, Column) any) any {
	plain := Column{Type: planast.TypeUnknown, Scale: -1}
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Nested(e, val)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Nested(e, val)
		}
		return out
	case nil, bool, string:
		return x
	}
	return val(v, plain)
}
