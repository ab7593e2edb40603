package render

import (
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// A cast of text to a number, a date or a timestamp means one thing on
// every engine: the value the text holds, or NULL when it holds none (as
// TRY_CAST does). SQLite alone would read 'null' and 'abc' as 0 and '12abc'
// as 12, PostgreSQL would fail the whole query, DuckDB would fail or read a
// date in another shape. The text holds a number when, spaces around it
// aside, it is [+-]digits[.digits][e[+-]digits] (or .digits); a date when
// it starts with a calendar date YYYY-MM-DD (year 0001 to 9999) followed by
// nothing, a space or "T"; a timestamp when it is such a date, optionally
// followed by a space or "T" and HH:MM[:SS[.fraction]] (00:00 to 23:59:59),
// which may end in Z or a UTC offset ±HH:MM: such a timestamp is the
// instant in UTC (2024-03-06T00:15:00+02:00 is 2024-03-05 22:15:00), as
// SQLite's date functions read it and as JavaScript writes timestamps
// ('2024-03-01T10:15:00.000Z'); its date is still the day it writes.
// A number outside the target's range is NULL too: |x| < 2^63 for integer,
// < 10^28 for decimal (DuckDB's DECIMAL(38,10) holds 28 integer digits), at
// most the largest double for float. A string literal cast to a number
// follows the same rule (Validate refuses one that holds no number): its
// plain cast read '1e3' as 1 on SQLite and 1000 elsewhere, and text beyond
// int64 as 9223372036854775807 on SQLite where the others failed.

// numberRE is the number shape for the engines with regular expressions.
const numberRE = `'^[[:space:]]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[[:space:]]*$'`

// dateRE is the date shape; the calendar check comes after it.
const dateRE = `'^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]|$)'`

// timestampRE is the timestamp shape: a time of day may end in Z or a
// UTC offset (2024-03-01T10:15:00.000Z, as JavaScript writes it).
const timestampRE = `'^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$'`

// rangeLimit is the exclusive magnitude bound of a number cast to t, as
// SQL text.
func rangeLimit(t planast.CastType) string {
	switch t {
	case planast.CastInteger:
		return "9223372036854775808"
	case planast.CastDecimal:
		return "1e28"
	}
	return "1.7976931348623158e308"
}

// textCast renders the cast of text x to t by the rule above, a long x
// named once (once.go).
func textCast(d Dialect, x string, t planast.CastType) string {
	return once([]string{x}, func(int) bool { return true }, func(a []string) string { return castOfText(d, a[0], t) })
}

// castOfText is textCast of x written where it stands.
func castOfText(d Dialect, x string, t planast.CastType) string {
	switch t {
	case planast.CastInteger, planast.CastDecimal, planast.CastFloat:
		return numberCast(d, x, t)
	case planast.CastDate, planast.CastTimestamp:
		return temporalCast(d, x, t)
	}
	return d.Cast(x, t)
}

func numberCast(d Dialect, x string, t planast.CastType) string {
	lim := rangeLimit(t)
	switch d.Name() {
	case "sqlite":
		// SQLite applies numeric affinity to the text side of a comparison
		// with a NUMERIC cast only when the text is a well-formed number
		// (spaces around it allowed): otherwise it stays text and differs.
		n := "CAST(" + x + " AS NUMERIC)"
		return "(CASE WHEN typeof(" + x + ") = 'text' AND " + n + " = " + x + " AND abs(CAST(" + x + " AS REAL)) < " + lim +
			" THEN " + d.Cast(n, t) + " END)"
	case "duckdb":
		inner := "TRY_CAST(trim(" + x + ") AS DECIMAL(38,10))" // integer digits beyond 2^53 kept
		if t == planast.CastFloat {
			inner = "TRY_CAST(trim(" + x + ") AS DOUBLE)"
		}
		return "(CASE WHEN regexp_matches(" + x + ", " + numberRE + ") AND abs(TRY_CAST(trim(" + x + ") AS DOUBLE)) < " + lim +
			" THEN " + d.Cast(inner, t) + " END)"
	}
	n := "CAST(trim(" + x + ") AS NUMERIC)"
	if t == planast.CastDecimal {
		// the exact digits, not through a double
		return "(CASE WHEN " + x + " ~ " + numberRE + " THEN (CASE WHEN abs(" + n + ") < " + lim + " THEN " + n + " END) END)"
	}
	v := d.Cast(n, t)
	if t == planast.CastInteger {
		// also through a double, as SQLite and DuckDB test it:
		// 9223372036854775807 is 2^63 as a double, out of range on every
		// engine (the outer test keeps 1e400 from the double cast)
		v = "(CASE WHEN abs(CAST(" + n + " AS DOUBLE PRECISION)) < " + lim + " THEN " + v + " END)"
	}
	return "(CASE WHEN " + x + " ~ " + numberRE + " THEN (CASE WHEN abs(" + n + ") < " + lim + " THEN " + v + " END) END)"
}

func temporalCast(d Dialect, x string, t planast.CastType) string {
	re := dateRE
	if t == planast.CastTimestamp {
		re = timestampRE
	}
	day := "substr(" + x + ", 1, 10)"
	switch d.Name() {
	case "sqlite":
		return "(CASE WHEN " + sqliteTemporal(x, t) + " THEN " + d.Cast(castInput(x, t, day), t) + " END)"
	case "duckdb":
		return "(CASE WHEN regexp_matches(" + x + ", " + re + ") AND substr(" + x + ", 1, 4) <> '0000' AND TRY_CAST(" + day + " AS DATE) IS NOT NULL" +
			" THEN " + castTemporal(d, x, t, day) + " END)"
	}
	// PostgreSQL has no TRY_CAST: the day of the month is checked against
	// the month's length before anything is cast
	y, m, dd := "CAST(substr("+x+", 1, 4) AS INTEGER)", "CAST(substr("+x+", 6, 2) AS INTEGER)", "CAST(substr("+x+", 9, 2) AS INTEGER)"
	last := "EXTRACT(DAY FROM make_date(" + y + ", " + m + ", 1) + INTERVAL '1 month' - INTERVAL '1 day')"
	return "(CASE WHEN " + x + " ~ " + re + " AND substr(" + x + ", 1, 4) <> '0000' THEN (CASE WHEN " + dd + " <= " + last +
		" THEN " + castTemporal(d, x, t, day) + " END) END)"
}

// castTemporal casts x, a valid date or timestamp text, to t: a date is
// its first ten characters (the calendar day written, whatever follows),
// a timestamp with Z or a UTC offset the instant in UTC, as SQLite's
// datetime() reads it (PostgreSQL's and DuckDB's own casts to timestamp
// drop the offset).
func castTemporal(d Dialect, x string, t planast.CastType, day string) string {
	if t == planast.CastDate || d.Name() == "sqlite" {
		return d.Cast(castInput(x, t, day), t)
	}
	n := "length(" + x + ")"
	mins := "((CASE WHEN substr(" + x + ", " + n + " - 5, 1) = '-' THEN -1 ELSE 1 END) * (CAST(substr(" + x + ", " + n + " - 4, 2) AS INTEGER) * 60 + CAST(substr(" + x + ", " + n + " - 1, 2) AS INTEGER)))"
	shift := "make_interval(mins => " + mins + ")"
	if d.Name() == "duckdb" {
		shift = "to_minutes(CAST(" + mins + " AS BIGINT))"
	}
	return "(CASE WHEN " + x + " LIKE '%Z' THEN " + d.Cast("substr("+x+", 1, "+n+" - 1)", t) +
		" WHEN " + n + " > 16 AND substr(" + x + ", " + n + " - 5, 1) IN ('+', '-') THEN " + d.Cast("substr("+x+", 1, "+n+" - 6)", t) + " - " + shift +
		" ELSE " + d.Cast(x, t) + " END)"
}

// sqliteTemporal is SQLite's test that x holds a valid date (or timestamp,
// by t) as text. A timestamp's time of day may end in Z or a UTC offset
// (+02:00), which SQLite's date functions apply.
func sqliteTemporal(x string, t planast.CastType) string {
	day := "substr(" + x + ", 1, 10)"
	// date() of a valid calendar date gives it back; of 2024-02-30 it
	// gives 2024-03-01 and of a malformed one NULL
	shape := "(length(" + x + ") = 10 OR substr(" + x + ", 11, 1) IN (' ', 'T'))"
	if t == planast.CastTimestamp {
		shape = "(length(" + x + ") = 10 OR " + timeShape(x, 0) + " OR " + sqliteSuffixed(x) + ")"
	}
	return "typeof(" + x + ") = 'text' AND " + shape + " AND substr(" + x + ", 1, 4) <> '0000' AND date(" + day + ") = " + day
}

// sqliteSuffixed is SQLite's test that x is a date and a time of day
// ending in Z or a UTC offset (hours below 24). Each suffix has its own
// length, so the time of day is tested in place: a test of x with its
// suffix cut off would name x three times for each of its own.
func sqliteSuffixed(x string) string {
	return "(length(" + x + ") > 16 AND ((" + x + " GLOB " + zSuffix + " AND " + timeShape(x, 1) + ") OR (" +
		x + " GLOB " + offsetSuffix + " AND CAST(substr(" + x + ", -5, 2) AS INTEGER) < 24 AND " + timeShape(x, 6) + ")))"
}

// zSuffix and offsetSuffix are SQLite's GLOBs of a timestamp text that
// ends in Z or in a UTC offset (+HH:MM).
const (
	zSuffix      = "'*Z'"
	offsetSuffix = "'*[+-][0-2][0-9]:[0-5][0-9]'"
)

// timeShape is SQLite's test that the text x is a date followed by a time
// of day, HH:MM with optional seconds and a fraction of 1 to 9 digits,
// and then by suffix more characters (tested apart).
func timeShape(x string, suffix int) string {
	n := "length(" + x + ")"
	at := func(k int) string { return strconv.Itoa(k + suffix) }
	return "(substr(" + x + ", 11, 1) IN (' ', 'T') AND substr(" + x + ", 12) GLOB '[0-2][0-9]:[0-5][0-9]*' AND CAST(substr(" + x + ", 12, 2) AS INTEGER) < 24 AND " +
		"(" + n + " = " + at(16) + " OR (" + n + " = " + at(19) + " AND substr(" + x + ", 17) GLOB ':[0-5][0-9]*') OR " +
		"(" + n + " BETWEEN " + at(21) + " AND " + at(29) + " AND substr(" + x + ", 17) GLOB ':[0-5][0-9].*' AND substr(" + x + ", 21, " + n + " - " + at(20) + ") NOT GLOB '*[^0-9]*')))"
}

// sqliteTimestamp is the valid timestamp text x as SQLite's datetime()
// reads it (the instant in UTC, to the second) followed by the fraction
// of a second x writes, to the microsecond as PostgreSQL and DuckDB keep
// it: datetime() alone dropped '10:11:12.5' to '10:11:12', so one plan
// showed two times. A shift by a UTC offset moves whole minutes, so the
// written fraction is the instant's; digits past the sixth are cut.
func sqliteTimestamp(x string) string {
	if lit, ok := quotedText(x); ok {
		// a literal's fraction is known here: the SQL stays datetime('…')
		frac := ""
		if len(lit) > 20 && lit[19] == '.' {
			frac = lit[20:]
			frac = frac[:len(frac)-len(strings.TrimLeft(frac, "0123456789"))]
			frac = frac[:min(len(frac), 6)]
		}
		if frac == "" {
			return "datetime(" + x + ")"
		}
		return "(datetime(" + x + ") || '." + frac + "')"
	}
	suffix := "(CASE WHEN " + x + " GLOB " + zSuffix + " THEN 1 WHEN " + x + " GLOB " + offsetSuffix + " THEN 6 ELSE 0 END)"
	return "(datetime(" + x + ") || CASE WHEN substr(" + x + ", 20, 1) = '.' THEN '.' || substr(" + x + ", 21, min(6, length(" + x + ") - 20 - " + suffix + ")) ELSE '' END)"
}

// quotedText is the text of x when x is one string literal as
// QuoteString writes it.
func quotedText(x string) (string, bool) {
	if len(x) < 2 || x[0] != '\'' || x[len(x)-1] != '\'' {
		return "", false
	}
	inner := x[1 : len(x)-1]
	if strings.Count(inner, "'")%2 != 0 || strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
		return "", false
	}
	return strings.ReplaceAll(inner, "''", "'"), true
}

// castInput is what a valid date or timestamp text is cast from: a date
// reads its first ten characters (the rest may be a time of day).
func castInput(x string, t planast.CastType, day string) string {
	if t == planast.CastDate {
		return day
	}
	return x
}

// floatToInt renders the cast of the float x to integer as TRY_CAST would:
// NULL for NaN, ±Infinity and |x| >= 2^63, the text rule's range, where
// PostgreSQL failed ("cannot convert NaN to bigint"), DuckDB failed and
// SQLite clamped Infinity and 1e300 to 9223372036854775807 (it stores NaN
// as NULL). NaN compares greater than every number on PostgreSQL and
// DuckDB, so the one test excludes it too. PostgreSQL truncates the double
// itself: through its numeric cast (15 significant digits) 9007199254740992.0
// became 9007199254740990.
func floatToInt(d Dialect, x string) string {
	v := d.Cast(x, planast.CastInteger)
	switch d.Name() {
	case "postgres":
		v = "CAST(TRUNC(CAST(" + x + " AS DOUBLE PRECISION)) AS BIGINT)"
	case "duckdb":
		// the double itself, as the others: DuckDB's integer cast goes
		// through DECIMAL(38,10), which made 28.999999999999996 29
		v = "CAST(TRUNC(" + x + ") AS BIGINT)"
	}
	return "(CASE WHEN abs(" + x + ") < " + rangeLimit(planast.CastInteger) + " THEN " + v + " END)"
}

// decimalToInt renders the cast of the decimal x to integer: its decimal
// value truncated. PostgreSQL and DuckDB hold decimals exactly; SQLite
// holds them as doubles, so 19.99 * 100 is 1998.9999999999998 there, which
// a plain cast truncates to 1998. Rounding to the plan's decimal scale
// (10 places, DECIMAL(38,10)) first gives back the decimal value.
func decimalToInt(d Dialect, x string) string {
	if d.Name() == "sqlite" {
		return d.Cast("ROUND("+x+", 10)", planast.CastInteger)
	}
	return d.Cast(x, planast.CastInteger)
}

// CastText is the cast of the text x to t in dialect d by the rule above.
func CastText(d Dialect, x string, t planast.CastType) string {
	return textCast(d, x, t)
}

// CastValid is a condition of dialect d, true when the text x holds a t
// value by the rule above (its cast is not NULL): profiling counts the
// values of a text column for which it is false, with the very SQL a
// plan's cast runs.
func CastValid(d Dialect, x string, t planast.CastType) string {
	return "(" + textCast(d, x, t) + " IS NOT NULL)"
}
