package validate

import (
	"fmt"
	"strings"
	"time"

	. "github.com/nl2sql/nl2sql/planast"
)

// The text-cast rule (render/textcast.go renders it): a cast of text to a
// number, a date or a timestamp is the value the text holds, or NULL when
// it holds none, on every engine. A string literal is known before any SQL
// runs, so a literal that holds no such value is refused here instead: on
// PostgreSQL it would fail the query, on SQLite read as 0 or NULL, on
// DuckDB as a date in another shape.

// castLiteral refuses a string literal cast to t that holds no t value by
// the text-cast rule.
func (v *validator) castLiteral(lit *Literal, t CastType, path string) {
	if lit.Type != TString {
		return
	}
	s := lit.Text
	ok := TextHolds(s, t)
	if t == CastDate {
		// exactly a date, or a timestamp (whose day it is), so that the
		// plain cast of the literal reads the same on every engine
		ok = ok && (len(s) == 10 || IsTimestampText(s))
	}
	if !ok {
		what := map[CastType]string{CastFloat: "number", CastDecimal: "number", CastInteger: "whole number"}[t]
		if what == "" {
			what = string(t)
		}
		hint := castHint(t)
		if at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s)); err == nil && (t == CastTimestamp || t == CastDate) {
			// a zone in a literal is refused (a literal means the time it
			// writes), but the instant it names is known: the same in UTC
			utc := at.UTC().Format("2006-01-02 15:04:05.999999999")
			if t == CastDate {
				utc = utc[:10]
			}
			hint = fmt.Sprintf("a literal carries no time zone: write the instant in UTC, %q (stored times with Z or an offset are read in UTC too)", utc)
		}
		v.addHint(CodeBadValue, path, hint, "%q holds no %s: a cast of text that holds none is NULL on every engine, and such a literal is refused", Truncate(strings.TrimSpace(s), 40), what)
	}
}

func castHint(t CastType) string {
	switch t {
	case CastDate:
		return `write the date as YYYY-MM-DD, e.g. {"kind":"literal","type":"date","value":"2024-03-01"}`
	case CastTimestamp:
		return `write the timestamp as YYYY-MM-DD HH:MM:SS, e.g. {"kind":"literal","type":"timestamp","value":"2024-03-01 10:00:00"}`
	}
	return `write the number as a number literal, e.g. {"kind":"literal","value":12.5}`
}

// fractional reports a float or decimal type, whose values each engine
// prints as text its own way: CAST(2.0 AS TEXT) is '2.0' on SQLite and
// DuckDB and '2' on PostgreSQL, 0.1 + 0.2 is '0.3' on SQLite (15 digits)
// and '0.30000000000000004' elsewhere, 1e20 is '1.0e+20', '1e+20' or
// '100000000000000000000', and a NUMERIC(10,2) keeps its two decimals
// where SQLite's double drops them. No rendering gives one text for every
// value on the three (SQLite has no shortest round-trip printing), so
// Validate refuses such a cast, and the text arguments (CONCAT) that would
// need one, rather than let a label or a join on text differ by engine.
func fractional(t Type) bool { return t == TypeFloat || t == TypeDecimal }

// numberTextHint is the hint of a refused cast of the float or decimal x
// to text: the number as its own column, or its whole part as text, which
// prints the same everywhere.
func numberTextHint(x Expr) string {
	whole := &Cast{Expr: &Cast{Expr: &Func{Name: "ROUND", Args: []Expr{x}}, Type: CastInteger}, Type: CastText}
	b, err := JSON(whole)
	if err != nil {
		return "select the number as its own column: every engine returns the same number"
	}
	return "select the number as its own column (every engine returns the same number), or round it to a whole number, whose text is the same everywhere: " + string(b)
}

// textDateArgs are the arguments of date function name that may be text,
// and the cast they take by the text-cast rule: a timestamp where unit is
// hour or minute (the time of day counts), else a date (the label, part,
// truncation or day count of a date is its day's); DATE_ADD's a timestamp
// whatever the unit, as DATE_ADD of a timestamp keeps the time of day
// (read as a date, '2024-04-09T07:06:00Z' plus a day was 2024-04-10, and
// "closed within a day of opening" counted tickets closed at 23:00 the
// next day). "" for other functions.
// Without it PostgreSQL and DuckDB failed the whole query on the first
// text that holds no timestamp ('n/a'), and SQLite read 2024-02-30 as a
// day of March.
func textDateArgs(name, unit string) (CastType, []int) {
	to := CastDate
	if unit == "hour" || unit == "minute" {
		to = CastTimestamp
	}
	switch name {
	case "PERIOD_LABEL", "DATE_PART", "DATE_TRUNC":
		return to, []int{1}
	case "DATE_ADD":
		return CastTimestamp, []int{2}
	case "DATE_DIFF_DAYS":
		return CastDate, []int{0, 1}
	case "ELAPSED_SECONDS":
		return CastTimestamp, []int{0, 1}
	case "AT_TIME_ZONE": // an instant; the zone, its second, is text
		return CastTimestamp, []int{0}
	case "FROM_EPOCH_SECONDS":
		// seconds kept as text ('1609459200'), as a timestamp column
		// holding numbers shows them cast to text
		return CastFloat, []int{0}
	}
	return "", nil
}

// textAs wraps *a, a text argument of a date function, in the cast to t
// by the text-cast rule, as a cast node of the plan would be (a literal
// is checked and cast plainly), so it means one thing on every engine and
// the result says how many values it read as NULL; it returns the cast's
// type.
func (v *validator) textAs(a *Expr, t CastType, path string) Type {
	c := &Cast{Expr: *a, Type: t, FromText: true}
	if lit, ok := c.Expr.(*Literal); ok {
		v.castLiteral(lit, t, path)
		c.FromText = false
	}
	*a = c
	return castResult(t)
}
