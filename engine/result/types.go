package result

import (
	"math"
	"strconv"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// ApplyTypes gives a run's rows the validator's portable column types
// (they know what an expression computes; the driver often does not), and
// rounds decimal columns that came back as doubles below 10^15 to the 15
// significant digits a double carries: SQLite computes NUMERIC arithmetic
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
		if t == planast.TypeDate || t == planast.TypeTimestamp {
			// an expression over dates (MIN, MAX, CASE) comes back from
			// SQLite as stored text: shown as the column itself is
			for _, row := range res.Rows {
				if s, ok := row[i].(string); ok {
					row[i] = source.TemporalText(s, t)
				}
			}
			continue
		}
		if t != planast.TypeDecimal {
			continue
		}
		for _, row := range res.Rows {
			if f, ok := row[i].(float64); ok && math.Abs(f) < 1e15 {
				if g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64); err == nil {
					row[i] = g
				}
			}
		}
	}
}
