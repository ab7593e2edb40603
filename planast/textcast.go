package planast

import "regexp"

// The text-cast rule in Go (render/textcast.go writes it in SQL, and says
// it in full): validation refuses a string literal that holds no value of
// its cast, and profiling tells from a text column's samples whether the
// column holds dates or numbers, so that only such columns are counted.
var (
	numberCastText    = regexp.MustCompile(`^\s*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$`)
	dateCastText      = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T].*)?$`)
	timestampCastText = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?)?$`)
)

// TextHolds reports whether text s holds a value of t by the text-cast
// rule: a number by its shape (the target's range aside), a date when it
// starts with a calendar date followed by nothing, a space or "T", a
// timestamp when it is a date optionally followed by a time of day (for a
// literal, without Z or a UTC offset, which the SQL rule accepts in stored
// text: a literal means the time it writes). Other targets hold any text.
func TextHolds(s string, t CastType) bool {
	switch t {
	case CastInteger, CastDecimal, CastFloat:
		return numberCastText.MatchString(s)
	case CastDate:
		return dateCastText.MatchString(s) && s[:4] != "0000" && IsDateLiteral(s[:10])
	case CastTimestamp:
		return timestampCastText.MatchString(s) && s[:4] != "0000" && IsDateLiteral(s[:10])
	}
	return true
}

// IsTimestampText reports whether s is a date optionally followed by a
// time of day, as the text-cast rule reads a timestamp (its calendar aside).
func IsTimestampText(s string) bool { return timestampCastText.MatchString(s) }
