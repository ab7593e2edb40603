package render

import (
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// DuckDB renders for DuckDB 1.x.
type DuckDB struct{}

func (DuckDB) Name() string { return "duckdb" }

func (DuckDB) Cast(x string, t planast.CastType) string {
	switch t {
	case planast.CastInteger:
		return "CAST(TRUNC(CAST(" + x + " AS DECIMAL(38,10))) AS BIGINT)"
	case planast.CastDecimal:
		return "CAST(" + x + " AS DECIMAL(38,10))"
	case planast.CastFloat:
		return "CAST(" + x + " AS DOUBLE)"
	case planast.CastText:
		return "CAST(" + x + " AS VARCHAR)"
	case planast.CastBoolean:
		return "(CAST(" + x + " AS BIGINT) <> 0)"
	case planast.CastDate:
		return "CAST(" + x + " AS DATE)"
	case planast.CastTimestamp:
		return "CAST(" + x + " AS TIMESTAMP)"
	}
	return "CAST(" + x + " AS VARCHAR)"
}

func (DuckDB) DateLiteral(q string) string      { return "DATE " + q }
func (DuckDB) TimestampLiteral(q string) string { return "TIMESTAMP " + q }

func (DuckDB) TrueDiv(l, r string) string {
	return "(CAST(" + l + " AS DOUBLE) / NULLIF(" + r + ", 0))"
}

// IntDiv: a quotient beyond int64 (or infinite) fails the cast to BIGINT
// ("out of range", ARITHMETIC_OVERFLOW); a NaN one is NULL, as on SQLite,
// which has no NaN.
func (DuckDB) IntDiv(l, r string) string {
	return "CAST(TRUNC(NULLIF(CAST(" + l + " AS DOUBLE) / NULLIF(" + r + ", 0), CAST('NaN' AS DOUBLE))) AS BIGINT)"
}

func (DuckDB) ParenthesizeCompound() bool { return true }

// duckLabel is PERIOD_LABEL of x, a date or timestamp. strftime labels
// an infinite one 'infinity' or '-infinity', as PostgreSQL's rendering
// does; its quarter is NULL, so the quarter's label is guarded.
func duckLabel(unit, x string) (string, bool) {
	switch unit {
	case "year":
		return "strftime(" + x + ", '%Y')", true
	case "month":
		return "strftime(" + x + ", '%Y-%m')", true
	case "day":
		return "strftime(" + x + ", '%Y-%m-%d')", true
	case "quarter":
		return "(CASE WHEN isfinite(" + x + ") THEN strftime(" + x + ", '%Y') || '-Q' || CAST(quarter(" + x + ") AS VARCHAR) ELSE CAST(" + x + " AS VARCHAR) END)", true
	}
	return "", false
}

func (DuckDB) Func(name string, a []string) (string, bool) {
	switch name { // sessions run in UTC (DuckDBInUTC): a timestamptz cast to timestamp is UTC
	case "CURRENT_DATE":
		return "CAST(CAST(CURRENT_TIMESTAMP AS TIMESTAMP) AS DATE)", true
	case "CURRENT_TIMESTAMP":
		return "DATE_TRUNC('second', CAST(CURRENT_TIMESTAMP AS TIMESTAMP))", true
	}
	if name == "FROM_EPOCH_SECONDS" {
		// floor(v) milliseconds (see writer.scalar), in microseconds:
		// DuckDB multiplies an interval by a 32-bit integer only
		return "make_timestamp(CAST(FLOOR(" + a[0] + ") AS BIGINT) * 1000)", true
	}
	if name == "PERIOD_LABEL" {
		return duckLabel(a[0], "CAST("+a[1]+" AS TIMESTAMP)")
	}
	if name == "ROUND" {
		x := roundHalfShown("CAST(" + a[0] + " AS DOUBLE)")
		if len(a) == 1 {
			return "ROUND(" + x + ")", true
		}
		return "ROUND(" + x + ", CAST(" + a[1] + " AS INTEGER))", true
	}
	// ROUND works on DOUBLE: DuckDB types ROUND of a DECIMAL(38,10) as
	// DECIMAL(38,0), and a union, CASE or IN that meets it with a DECIMAL of
	// a larger scale rounds every value to that scale (1.99 becomes 2)
	if name == "ELAPSED_SECONDS" {
		return elapsedSeconds(a[0], a[1], "DOUBLE", "DOUBLE", true), true
	}
	return pgLikeFunc(name, a, "DOUBLE", "DOUBLE", duckShift, func(end, start string) string {
		return "date_diff('day', CAST(" + start + " AS DATE), CAST(" + end + " AS DATE))"
	})
}

// duckShift is the timestamp ts moved by n units on DuckDB, a month from
// the 31st landing on the next month's last day as on PostgreSQL; by days
// it is a date.
func duckShift(unit, n, ts string) string {
	switch unit {
	case "year":
		return ts + " + to_years(CAST(" + n + " AS INTEGER))"
	case "quarter":
		return ts + " + to_months(CAST(" + n + " AS INTEGER) * 3)"
	case "month":
		return ts + " + to_months(CAST(" + n + " AS INTEGER))"
	}
	// days by date arithmetic, not an interval: DuckDB (1.5) treats
	// INTERVAL 30 DAY as equal to INTERVAL 1 MONTH and merges
	// x + to_days(30) with x + to_months(1) in one statement
	return "CAST(" + ts + " AS DATE) + CAST(" + n + " AS INTEGER)"
}

// Spread renders a standard deviation or variance in two passes over the
// group's values: their mean, then the sum of squared deviations from it,
// less (Σ deviations)² / n, which is n·(rounding of the mean)² (corrected
// two-pass), so the result is within a few roundings of the exact one, as PostgreSQL's, where DuckDB's
// own var_samp loses half its digits over values like 1e9+1, 1e9+2, ... It
// holds the group's values in a list: memory grows with the group.
func (DuckDB) Spread(name, arg, x string) string {
	distinct := strings.HasPrefix(arg, "DISTINCT ")
	d := ""
	if distinct {
		d = "DISTINCT "
	}
	mean := "avg(" + arg + ")"
	values := "list(" + arg + ") FILTER (WHERE " + x + " IS NOT NULL)"
	sum := "list_sum(list_transform(" + values + ", nl2sql_v -> (nl2sql_v - " + mean + ") * (nl2sql_v - " + mean + ")))"
	// the corrected two-pass form: minus (Σ(x − mean))² / n, which takes
	// out what the rounding of the mean added
	dev := "list_sum(list_transform(" + values + ", nl2sql_v -> nl2sql_v - " + mean + "))"
	count := "count(" + d + x + ")"
	n := count
	if strings.HasSuffix(name, "_SAMP") {
		n += " - 1"
	}
	v := "((" + sum + " - " + dev + " * " + dev + " / " + count + ") / NULLIF(" + n + ", 0))"
	if strings.HasPrefix(name, "STDDEV") {
		return "sqrt" + v
	}
	return v
}
