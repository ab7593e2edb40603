package validate

import (
	"encoding/json"
	. "github.com/nl2sql/nl2sql/planast"
	"regexp"
	"strings"
)

// The text-cast rule (render/textcast.go renders it): a cast of text to a
// number, a date or a timestamp is the value the text holds, or NULL when
// it holds none, on every engine. A string literal is known before any SQL
// runs, so a literal that holds no such value is refused here instead: on
// PostgreSQL it would fail the query, on SQLite read as 0 or NULL, on
// DuckDB as a date in another shape.

var (
	numberCastText    = regexp.MustCompile(`^\s*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$`)
	dateCastText      = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T].*)?$`)
	timestampCastText = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?)?$`)
)

// castLiteral refuses a string literal cast to t that holds no t value by
// the text-cast rule.
func (v *validator) castLiteral(lit *Literal, t CastType, path string) {
	if lit.Type != TString {
		return
	}
	s := lit.Text
	ok := true
	switch t {
	case CastInteger, CastDecimal, CastFloat:
		ok = numberCastText.MatchString(s)
	case CastDate:
		// exactly a date, or a timestamp (whose day it is), so that the
		// plain cast of the literal reads the same on every engine
		ok = (len(s) == 10 || timestampCastText.MatchString(s)) && dateCastText.MatchString(s) && s[:4] != "0000" && IsDateLiteral(s[:10])
	case CastTimestamp:
		ok = timestampCastText.MatchString(s) && s[:4] != "0000" && IsDateLiteral(s[:10])
	}
	if !ok {
		v.addHint(CodeBadValue, path, castHint(t), "%q holds no %s value: a cast of text that holds none is NULL on every engine, and such a literal is refused", Truncate(strings.TrimSpace(s), 40), t)
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
	b, err := json.Marshal(whole)
	if err != nil {
		return "select the number as its own column: every engine returns the same number"
	}
	return "select the number as its own column (every engine returns the same number), or round it to a whole number, whose text is the same everywhere: " + string(b)
}
