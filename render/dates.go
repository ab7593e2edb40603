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
func (Postgres) DateFunc(name string, a []string) (string, bool) { return onDate(name, a) }

// DateFunc: see dateRenderer. DuckDB's strftime takes a date as it is.
func (DuckDB) DateFunc(name string, a []string) (string, bool) {
	if name == "PERIOD_LABEL" {
		return duckLabel(a[0], a[1])
	}
	return onDate(name, a)
}

// DateFunc keeps CockroachDB on the timestamp form: make_date and
// isfinite of a date have not been tried there.
func (CockroachDB) DateFunc(string, []string) (string, bool) { return "", false }

// onDate renders DATE_PART, DATE_TRUNC and DATE_ADD by days of a date in
// the date arithmetic PostgreSQL and DuckDB share (EXTRACT of a date, date
// plus or minus an integer, make_date), which holds over every date the
// type does. An infinite date has no part (NULL, as an infinite timestamp)
// and truncates or moves to itself; the hour and minute of a finite date
// are 0, as of its midnight.
func onDate(name string, a []string) (string, bool) {
	unit, d := a[0], a[1]
	finite := "isfinite(" + d + ")"
	part := func(u string) string { return "CAST(EXTRACT(" + u + " FROM " + d + ") AS INTEGER)" }
	switch name {
	case "DATE_ADD":
		if unit != "day" { // months and years go through a timestamp
			return "", false
		}
		n, d := a[1], a[2]
		return "(CASE WHEN isfinite(" + d + ") THEN " + d + " + CAST(" + n + " AS INTEGER) ELSE " + d + " END)", true
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
