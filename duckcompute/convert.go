package duckcompute

import (
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/planast"
)

// Values arrive in internal/source's result encoding (nil, int64, float64,
// json.Number for decimals at their scale, string, bool; big integers and inexact decimals as digit strings, dates
// and timestamps as ISO text, blobs as base64) and are converted to the Go
// value the Appender stores in a column of the declared portable type. A
// value that does not convert is loaded as NULL and counted in a Warning:
// it never fails the load.

// Decimal columns are DECIMAL(38,S) with one scale S for the whole
// database (Options.DecimalScale): DuckDB types a UNION, CASE or COALESCE
// of two DECIMAL(38,s) of different scales with the smaller scale and
// rounds every value to it, which no plan can see coming. A value with
// more fraction digits than S is rounded half away from zero.

// MaxScale is the largest decimal scale: DuckDB's DECIMAL(38,38).
const MaxScale = 38

// Warning reports the values of one column that did not convert to its
// type; each was loaded as NULL, so it joins, compares and sums as nothing.
type Warning struct {
	Table   string       `json:"table"`
	Column  string       `json:"column"`
	Type    planast.Type `json:"type"`
	Count   int          `json:"count"`
	Example string       `json:"example"` // the first such value as text, at most 40 characters
}

func (w Warning) String() string {
	return fmt.Sprintf("%d value(s) of %s.%s did not convert to %s (first: %s) and were loaded as NULL", w.Count, w.Table, w.Column, w.Type, w.Example)
}

// duckType is the DuckDB column type of a portable type.
func duckType(t planast.Type, scale int) string {
	switch t {
	case planast.TypeInteger:
		return "BIGINT"
	case planast.TypeDecimal:
		return fmt.Sprintf("DECIMAL(38,%d)", scale)
	case planast.TypeFloat:
		return "DOUBLE"
	case planast.TypeBoolean:
		return "BOOLEAN"
	case planast.TypeDate:
		return "DATE"
	case planast.TypeTimestamp:
		return "TIMESTAMP"
	case planast.TypeBlob:
		return "BLOB"
	}
	return "VARCHAR"
}

// convert turns one encoded value into the Appender's value for type t
// (scale for decimals), or reports false.
func convert(v any, t planast.Type, scale int) (driver.Value, bool) {
	if v == nil {
		return nil, true
	}
	if n, ok := v.(json.Number); ok {
		v = string(n) // an exact decimal: its digits
	}
	switch t {
	case planast.TypeInteger:
		return toInt(v)
	case planast.TypeDecimal:
		r, ok := toRat(v)
		if !ok {
			return nil, false
		}
		u := scaled(r, scale)
		if u.CmpAbs(maxDecimal) >= 0 {
			return nil, false
		}
		return duckdb.Decimal{Width: 38, Scale: uint8(scale), Value: u}, true
	case planast.TypeFloat:
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, true
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			return f, err == nil || isRange(err)
		}
	case planast.TypeText:
		switch x := v.(type) {
		case string:
			return x, true
		case bool:
			return strconv.FormatBool(x), true
		case int64, float64:
			b, _ := json.Marshal(x)
			return string(b), true
		}
	case planast.TypeBoolean:
		switch x := v.(type) {
		case bool:
			return x, true
		case int64:
			return x == 1, x == 0 || x == 1
		case float64:
			return x == 1, x == 0 || x == 1
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "t", "yes", "1":
				return true, true
			case "false", "f", "no", "0":
				return false, true
			}
		}
	case planast.TypeDate:
		if tm, ok := infinite(v, t); ok {
			return tm, true
		}
		tm, ok := toTime(v)
		if !ok || tm.Hour() != 0 || tm.Minute() != 0 || tm.Second() != 0 || tm.Nanosecond() != 0 {
			return nil, false
		}
		return tm, true
	case planast.TypeTimestamp:
		tm, ok := toTime(v)
		return tm, ok
	case planast.TypeBlob:
		if s, ok := v.(string); ok {
			b, err := base64.StdEncoding.DecodeString(s)
			return b, err == nil
		}
	}
	return nil, false
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// toInt reads an integer: an int64, a whole float within range, or integer
// text (a whole decimal text too, "12.0").
func toInt(v any) (driver.Value, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
			return int64(x), true
		}
	case string:
		s := strings.TrimSpace(x)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
		if r, ok := toRat(s); ok && r.IsInt() && r.Num().IsInt64() {
			return r.Num().Int64(), true
		}
	}
	return nil, false
}

// toRat reads a number exactly: an int64, a float64 by its shortest
// decimal text (0.1 is 1/10, not the double's binary value), or decimal
// text (exponents allowed). Infinities, NaN and other text do not convert.
func toRat(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		s = strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		s = string(x)
	case string:
		s = strings.TrimSpace(x)
		if s == "" || strings.ContainsAny(s, "/xXpP_") { // SetString also reads fractions, hex and separators
			return nil, false
		}
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

var (
	maxDecimal = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	ten        = big.NewInt(10)
)

// FractionDigits is how many decimal places a value in the result encoding
// needs (a number, or decimal text), at most MaxScale; 0 for anything else.
func FractionDigits(v any) int {
	if n, ok := v.(json.Number); ok {
		// a decimal keeps the scale its engine returned: 349.00 needs 2
		if _, frac, dot := strings.Cut(string(n), "."); dot && !strings.ContainsAny(frac, "eE") {
			return min(len(frac), MaxScale)
		}
	}
	r, ok := toRat(v)
	if !ok {
		return 0
	}
	x := new(big.Rat).Set(r)
	for d := 0; d < MaxScale; d++ {
		if x.IsInt() {
			return d
		}
		x.Mul(x, new(big.Rat).SetInt(ten))
	}
	return MaxScale
}

// IntegerDigits is how many digits the integer part of a value in the
// result encoding has (0 for 0.5 and for anything not a number).
func IntegerDigits(v any) int {
	r, ok := toRat(v)
	if !ok {
		return 0
	}
	q := new(big.Int).Quo(new(big.Int).Abs(r.Num()), r.Denom())
	if q.Sign() == 0 {
		return 0
	}
	return len(q.String())
}

// scaled is r × 10^scale rounded half away from zero.
func scaled(r *big.Rat, scale int) *big.Int {
	m := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(ten, big.NewInt(int64(scale)), nil)))
	num, den := new(big.Int).Abs(m.Num()), m.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(rem, big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if m.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// round15 rounds a double to the 15 significant digits it carries.
func round15(x float64) float64 {
	if g, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64); err == nil {
		return g
	}
	return x
}

// timeLayouts are the date and timestamp texts a value may be in.
var timeLayouts = []string{
	"2006-01-02", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
}

// toTime reads ISO date or timestamp text as UTC.
func toTime(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// SubMicrosecond reports whether v, a timestamp in the result encoding, has
// digits past the microsecond, which a TIMESTAMP column drops.
func SubMicrosecond(v any) bool {
	t, ok := toTime(v)
	return ok && t.Nanosecond()%1000 != 0
}

// example writes a value that did not convert, for a Warning.
func example(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = strconv.Quote(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:39]) + "…"
	}
	return s
}

// infinite is the Appender's value of an infinite date ("infinity",
// "-infinity", as every engine's results write them): the extreme day
// DuckDB stores it as, which the DuckDB encoding reads back as "infinity"
// (source.duckInfinity). Without it a PostgreSQL or DuckDB infinite date
// became NULL in a combination. (An infinite timestamp cannot be
// appended, the driver refuses its microseconds: textColumns loads its
// column as text and Load casts it back.)
func infinite(v any, t planast.Type) (time.Time, bool) {
	s, ok := v.(string)
	if !ok || t != planast.TypeDate || s != "infinity" && s != "-infinity" {
		return time.Time{}, false
	}
	days := int64(math.MaxInt32)
	if s[0] == '-' {
		days = -days
	}
	return time.Unix(days*86400, 0).UTC(), true
}

// textColumns says which columns are loaded as VARCHAR holding each value's
// exact text, because their DuckDB type cannot hold every value: a
// timestamp column with an infinite value (the Appender refuses its
// microseconds; Load casts the column back to TIMESTAMP, which reads
// "infinity"), and a decimal column with a value beyond DECIMAL(38,S) (a
// PostgreSQL numeric may have thousands of digits). Such a decimal column stays decimal in the
// catalog, so the combination's column types are the inputs' types, and
// its values come back as the same digits; in DuckDB it compares and sorts
// as text and has no arithmetic, which beats a NULL or a rounded value.
func textColumns(s Shape, rows [][]any, scale int) []bool {
	out := make([]bool, len(s.Columns))
	for i, c := range s.Columns {
		if c.Type != planast.TypeTimestamp && c.Type != planast.TypeDecimal {
			continue
		}
		for _, row := range rows {
			if i < len(row) && !fits(row[i], c.Type, scale) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// fits reports whether v is stored exactly by its column's DuckDB type
// (values that do not convert at all count as fitting: they are NULL
// with a Warning either way).
func fits(v any, t planast.Type, scale int) bool {
	if t == planast.TypeTimestamp {
		s, ok := v.(string)
		return !ok || !isInfinity(s)
	}
	r, ok := toRat(v)
	if !ok {
		return true
	}
	return scaled(r, scale).CmpAbs(maxDecimal) < 0
}

func isInfinity(s string) bool {
	s = strings.TrimSpace(s)
	return s == "infinity" || s == "-infinity"
}

// convertText is convert for a column textColumns chose: the value's exact
// text, a timestamp as DuckDB's cast reads it.
func convertText(v any, t planast.Type, _ int) (driver.Value, bool) {
	if v == nil {
		return nil, true
	}
	if n, ok := v.(json.Number); ok {
		v = string(n)
	}
	if t == planast.TypeTimestamp {
		if s, ok := v.(string); ok && isInfinity(s) {
			return strings.TrimSpace(s), true
		}
		tm, ok := toTime(v)
		if !ok {
			return nil, false
		}
		return tm.Format("2006-01-02 15:04:05.999999"), true
	}
	if _, ok := toRat(v); !ok {
		return nil, false
	}
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return strings.TrimSpace(v.(string)), true
}
