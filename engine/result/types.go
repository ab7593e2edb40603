package result

import (
	"math"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// ApplyTypes gives a run's rows the validator's portable column types
// (they know what an expression computes; the driver often does not), and
// rounds away the floating-point noise of decimal columns that came back
// as doubles below 10^15 (unnoised): SQLite computes NUMERIC arithmetic
// in floating point, so SUM over NUMERIC(10,2) values can return
// 18.810000000000002 where PostgreSQL returns 18.81. From 10^15 on, those
// 15 digits would drop integer digits the double holds (a computed
// 12345678901234568 became 12345678901234600): such a double keeps its
// value, every digit it has. An exact decimal (PostgreSQL's numeric,
// DuckDB's DECIMAL beyond 15 digits) comes as its text and is kept as it
// is. Date and timestamp columns that came back as ISO text are written as
// the driver writes times (source.TemporalText).
func ApplyTypes(res *source.Result, types []planast.Type) {
	if len(types) != len(res.Columns) {
		return
	}
	driver := res.ColumnTypes
	res.ColumnTypes = append([]planast.Type(nil), types...)
	for i, t := range types {
		// the plan cannot name a nested value's type (a list, a JSON
		// document, a point): the adapter's explicit one stands
		if i < len(driver) && (t == planast.TypeUnknown || t == planast.TypeText) && (driver[i] == planast.TypeJSON || t == planast.TypeUnknown) {
			res.ColumnTypes[i] = driver[i]
		}
		// bytes or not is how each value was stored, which only the
		// adapter sees (an SQLite TEXT column may hold blobs, a BLOB column
		// text): a blob column's values are read back from base64, so a
		// wrong guess shows text as the hash of bytes or bytes as text
		if i < len(driver) && driver[i] != t && (driver[i] == planast.TypeBlob || t == planast.TypeBlob) && driver[i] != planast.TypeUnknown {
			res.ColumnTypes[i] = driver[i]
		}
		if t == planast.TypeDate || t == planast.TypeTimestamp {
			// an expression over dates (MIN, MAX, CASE) comes back from
			// SQLite as stored text: shown as the column itself is
			for _, row := range res.Rows {
				// an instant the adapter wrote in UTC with its marker (a
				// PostgreSQL timestamptz, "2023-01-15 09:00:00+00:00")
				// keeps it: without, it reads as a local time
				if s, ok := row[i].(string); ok && !strings.HasSuffix(s, "+00:00") {
					row[i] = source.TemporalText(s, t)
				}
			}
			continue
		}
		if t == planast.TypeBoolean {
			// SQLite has no boolean: a comparison or a boolean column
			// comes back as 1 or 0, which the other engines return as
			// true or false
			for _, row := range res.Rows {
				if n, ok := row[i].(int64); ok && (n == 0 || n == 1) {
					row[i] = n == 1
				}
			}
			continue
		}
		if t != planast.TypeDecimal {
			continue
		}
		for _, row := range res.Rows {
			if f, ok := row[i].(float64); ok && math.Abs(f) < 1e15 {
				row[i] = unnoised(f)
			}
		}
	}
}

// unnoised is f rounded to 15 significant digits when what that drops is
// floating-point noise: the rounded value, its trailing zeros trimmed,
// has at most 13 digits, so the digits dropped followed a run of zeros or
// nines (18.810000000000002, 0.30000000000000004). A double whose 16th
// and 17th digits are data (a stored 12345678.12345679 of a
// DECIMAL(18,9) column) is kept: rounding it at 15 digits
// (12345678.1234568) showed another number than the database holds.
func unnoised(f float64) float64 {
	s := strconv.FormatFloat(f, 'e', 14, 64) // 15 significant digits
	mant, _, _ := strings.Cut(s, "e")
	if len(strings.TrimRight(strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1), "0")) > 13 {
		return f
	}
	g, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return f
	}
	return g
}
