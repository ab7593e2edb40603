package render

import "strings"

// dateRenderer is implemented by dialects whose timestamp range is
// narrower than their date range (PostgreSQL to 294276 AD, DuckDB to
// 294247 AD; dates go on to 5874897 and 5881580 AD). Their DATE_PART and
// DATE_TRUNC (DATE_ADD, PERIOD_LABEL) go through a timestamp, so of a date
// past that range they fail the whole query; DateFunc computes them on the
// date itself. name is the function, a the rendered arguments (the unit
// first, lower case); ok is false where the timestamp form is to be used.
type dateRenderer interface {
	DateFunc(name string, a []string) (sql string, ok bool)
}

// DateFunc: see dateRenderer.
func (Postgres) DateFunc(name string, a []string) (string, bool) {
	if name == "DATE_ADD" {
		return addToDate(a[0], a[1], a[2], pgShift), true
	}
	return onDate(name, a)
}

// DateFunc: see dateRenderer. DuckDB's strftime takes a date as it is.
func (DuckDB) DateFunc(name string, a []string) (string, bool) {
	switch name {
	case "PERIOD_LABEL":
		return duckLabel(a[0], a[1])
	case "DATE_ADD":
		return addToDate(a[0], a[1], a[2], duckShift), true
	}
	return onDate(name, a)
}

// addToDate is DATE_ADD(unit, n, d) of the date d on PostgreSQL and
// DuckDB, decided on the date itself (pgAddInYears): by days the date
// plus whole days, by months through a timestamp once the result is known
// to lie in years 1 to 9999, so a date past the timestamp's range is NULL
// as on SQLite, not a failed query.
func addToDate(unit, n, d string, shift func(unit, n, ts string) string) string {
	moved := d + " + CAST(" + n + " AS INTEGER)"
	if unit != "day" {
		moved = "CAST(" + shift(unit, n, "CAST("+d+" AS TIMESTAMP)") + " AS DATE)"
	}
	return pgAddInYears(unit, n, d, d, moved)
}

// DateFunc keeps CockroachDB on the timestamp form: make_date and
// isfinite of a date have not been tried there.
func (CockroachDB) DateFunc(string, []string) (string, bool) { return "", false }

// timestampAdder renders DATE_ADD(unit, n, x) of the timestamp x (unit
// lower case): a timestamp that keeps x's time of day, to its fraction. A
// month (quarter, year) from a day its target month lacks lands on that
// month's last day, as PostgreSQL's interval arithmetic does: 2024-01-31
// 10:00:00 plus a month is 2024-02-29 10:00:00. An infinite x stays
// itself. A result outside years 1 to 9999 is NULL on every engine, as
// FROM_EPOCH_SECONDS is: SQLite's dates stop there, and PostgreSQL would
// fail the whole query past its own range.
type timestampAdder interface {
	AddToTimestamp(unit, n, x string) string
}

// yearsOne9999 bounds the amount of DATE_ADD of a timestamp: the days
// from 0001-01-01 to 9999-12-31, so no amount that can land in those years
// is cut, and none computed overflows an integer or a timestamp.
const yearsOne9999 = "3652058"

// AddToTimestamp: see timestampAdder.
func (Postgres) AddToTimestamp(unit, n, x string) string {
	return pgAddToTimestamp(unit, n, x, pgShift)
}

// AddToTimestamp: see timestampAdder. DuckDB's shift by days is a date
// (duckShift): the time of day is added back.
func (DuckDB) AddToTimestamp(unit, n, x string) string {
	return pgAddToTimestamp(unit, n, x, func(unit, n, ts string) string {
		if unit == "day" {
			return "(" + duckShift(unit, n, ts) + " + CAST(" + ts + " AS TIME))"
		}
		return duckShift(unit, n, ts)
	})
}

// pgAddToTimestamp is DATE_ADD of a timestamp on PostgreSQL and DuckDB
// (pgAddInYears).
func pgAddToTimestamp(unit, n, x string, shift func(unit, n, ts string) string) string {
	ts := "CAST(" + x + " AS TIMESTAMP)"
	return pgAddInYears(unit, n, ts, "CAST("+ts+" AS DATE)", shift(unit, n, ts))
}

// pgAddInYears is DATE_ADD(unit, n, t) on PostgreSQL and DuckDB of t, a
// date or a timestamp whose day is day: moved, t moved by n units, where
// that lies in years 1 to 9999, t where t is infinite, else NULL, as on
// SQLite, whose dates stop there (a date of 9999-12-28 plus 10 days was
// NULL on SQLite and 10000-01-07 on the others). Whether the result lies
// in those years is decided before it is computed, in whole days or months
// from year 1 (the clamp to a month's last day never leaves the month),
// since computing one below 4713 BC, or past the timestamp's range from a
// date, fails the whole query, and so does an amount past 32 bits.
func pgAddInYears(unit, n, t, day, moved string) string {
	amount := "CAST(" + n + " AS BIGINT)"
	// the target day counted from 0001-01-01, or the target month from
	// December of year 0 (January of year 1 is 13)
	target, first, last := "("+day+" - DATE '0001-01-01') + "+amount, "0", yearsOne9999
	if unit != "day" {
		months := map[string]string{"year": " * 12", "quarter": " * 3", "month": ""}[unit]
		target, first, last = "CAST(EXTRACT(YEAR FROM "+t+") AS BIGINT) * 12 + CAST(EXTRACT(MONTH FROM "+t+") AS BIGINT) + "+amount+months, "13", "120000"
	}
	return "(CASE WHEN NOT isfinite(" + t + ") THEN " + t +
		" WHEN (CASE WHEN " + amount + " BETWEEN -" + yearsOne9999 + " AND " + yearsOne9999 + " THEN " + target + " END) BETWEEN " + first + " AND " + last +
		" THEN " + moved + " END)"
}

// AddToTimestamp: see timestampAdder. datetime() drops the fraction of a
// second, which is put back from the timestamp's text (SQLite's own
// reading would round it to the millisecond, 59.9996 seconds to the next
// minute); past 9999 datetime() is NULL already.
func (SQLite) AddToTimestamp(unit, n, x string) string {
	t := sqliteTimestamp(x)
	mods := map[string]string{
		"year":    "(" + n + ") || ' years', 'floor'",
		"quarter": "((" + n + ") * 3) || ' months', 'floor'",
		"month":   "(" + n + ") || ' months', 'floor'",
		"day":     "(" + n + ") || ' days'",
	}[unit]
	r := "(datetime(substr(" + t + ", 1, 19), " + mods + ") || substr(" + t + ", 20))"
	return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x +
		" WHEN (" + n + ") BETWEEN -" + yearsOne9999 + " AND " + yearsOne9999 + " AND " + r + " >= '0001-01-01' THEN " + r + " END)"
}

// onDate renders DATE_PART and DATE_TRUNC of a date in the date
// arithmetic PostgreSQL and DuckDB share (EXTRACT of a date, date minus
// an integer, make_date), which holds over every date the type does. An
// infinite date has no part (NULL, as an infinite timestamp) and
// truncates to itself; the hour and minute of a finite date
// are 0, as of its midnight.
func onDate(name string, a []string) (string, bool) {
	unit, d := a[0], a[1]
	finite := "isfinite(" + d + ")"
	part := func(u string) string { return "CAST(EXTRACT(" + u + " FROM " + d + ") AS INTEGER)" }
	switch name {
	case "DATE_PART":
		v := "CAST(EXTRACT(" + strings.ToUpper(unit) + " FROM " + d + ") AS BIGINT)"
		if unit == "hour" || unit == "minute" {
			v = "CAST(0 AS BIGINT)"
		}
		return "(CASE WHEN " + finite + " THEN " + v + " END)", true
	case "DATE_TRUNC":
		var v string
		switch unit {
		case "day":
			return d, true
		case "week": // back to Monday: ISODOW is 1 (Monday) to 7
			v = d + " - " + part("ISODOW") + " + 1"
		case "month":
			v = d + " - " + part("DAY") + " + 1"
		case "year":
			v = d + " - " + part("DOY") + " + 1"
		case "quarter":
			v = "make_date(" + part("YEAR") + ", " + part("QUARTER") + " * 3 - 2, 1)"
		default: // hour and minute keep a time a date has not got
			return "", false
		}
		return "(CASE WHEN " + finite + " THEN " + v + " ELSE " + d + " END)", true
	}
	return "", false
}
