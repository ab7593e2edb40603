package validate

import (
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
