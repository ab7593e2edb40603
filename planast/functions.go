package planast

import (
	"strconv"
	"strings"
)

// FuncKind says where a function may appear.
type FuncKind int

// Function kinds.
const (
	Scalar     FuncKind = iota // anywhere an expression may appear
	Aggregate                  // SELECT, HAVING, ORDER BY, or OVER a window
	WindowOnly                 // only as a Window node
)

// FuncSpec describes one allow-listed function. MaxArgs < 0 means variadic.
// UnitArg is the index of an argument that must be a string literal naming
// one of the function's units (UnitsOf), or -1.
type FuncSpec struct {
	Name             string
	Kind             FuncKind
	MinArgs, MaxArgs int
	UnitArg          int
}

// Functions is the allow-list, keyed by upper-case name. Every renderer must
// render each of them for every dialect (a test enumerates this).
var Functions = map[string]FuncSpec{
	"COUNT": {"COUNT", Aggregate, 0, 1, -1},
	"SUM":   {"SUM", Aggregate, 1, 1, -1},
	"AVG":   {"AVG", Aggregate, 1, 1, -1},
	"MIN":   {"MIN", Aggregate, 1, 1, -1},
	"MAX":   {"MAX", Aggregate, 1, 1, -1},
	// STDDEV_SAMP, STDDEV_POP, VAR_SAMP and VAR_POP (STDDEV and VARIANCE
	// are the sample forms) are floats over the values as doubles, NULL
	// over fewer than two values (sample) or none (population), the same
	// on every engine to within rounding; not over a window.
	"STDDEV_SAMP": {"STDDEV_SAMP", Aggregate, 1, 1, -1},
	"STDDEV_POP":  {"STDDEV_POP", Aggregate, 1, 1, -1},
	"VAR_SAMP":    {"VAR_SAMP", Aggregate, 1, 1, -1},
	"VAR_POP":     {"VAR_POP", Aggregate, 1, 1, -1},
	"STDDEV":      {"STDDEV", Aggregate, 1, 1, -1},
	"VARIANCE":    {"VARIANCE", Aggregate, 1, 1, -1},
	"ROW_NUMBER":  {"ROW_NUMBER", WindowOnly, 0, 0, -1},
	"RANK":        {"RANK", WindowOnly, 0, 0, -1},
	"DENSE_RANK":  {"DENSE_RANK", WindowOnly, 0, 0, -1},
	"LAG":         {"LAG", WindowOnly, 1, 3, -1},
	"LEAD":        {"LEAD", WindowOnly, 1, 3, -1},
	"COALESCE":    {"COALESCE", Scalar, 2, -1, -1},
	"NULLIF":      {"NULLIF", Scalar, 2, 2, -1},
	"ABS":         {"ABS", Scalar, 1, 1, -1},
	"ROUND":       {"ROUND", Scalar, 1, 2, -1},
	// SQRT(x) and LN(x) are float functions, NULL outside their domain
	// (x < 0, x <= 0) on every engine: PostgreSQL would fail the query,
	// DuckDB return NaN or -inf, SQLite NULL.
	"SQRT":   {"SQRT", Scalar, 1, 1, -1},
	"LN":     {"LN", Scalar, 1, 1, -1},
	"UPPER":  {"UPPER", Scalar, 1, 1, -1},
	"LOWER":  {"LOWER", Scalar, 1, 1, -1},
	"TRIM":   {"TRIM", Scalar, 1, 1, -1},
	"LENGTH": {"LENGTH", Scalar, 1, 1, -1},
	// SUBSTR(text, start[, length]) has SQLite's meaning on every engine:
	// positions are 1-based, a negative start counts from the end
	// (SUBSTR('hello', -2) = 'lo', SUBSTR('hello', -3, 2) = 'll'), and
	// positions before the first character count but yield nothing
	// (SUBSTR('hello', 0, 2) = 'h'). A literal negative length is refused.
	"SUBSTR": {"SUBSTR", Scalar, 2, 3, -1},
	// LEFT(text, n) and RIGHT(text, n) are the first and last n characters:
	// the whole text when n exceeds its length, '' when n is 0 or negative,
	// NULL when either argument is NULL.
	"LEFT":       {"LEFT", Scalar, 2, 2, -1},
	"RIGHT":      {"RIGHT", Scalar, 2, 2, -1},
	"CONCAT":     {"CONCAT", Scalar, 2, -1, -1},
	"REPLACE":    {"REPLACE", Scalar, 3, 3, -1},
	"DATE_PART":  {"DATE_PART", Scalar, 2, 2, 0},
	"DATE_TRUNC": {"DATE_TRUNC", Scalar, 2, 2, 0},
	// DATE_ADD(unit, n, x) is x moved n units: a date stays a date, a
	// timestamp keeps its time of day. A month from a day the target month
	// lacks lands on its last day, as in PostgreSQL (2024-01-31 plus a
	// month is 2024-02-29); a timestamp outside years 1 to 9999 is NULL.
	"DATE_ADD": {"DATE_ADD", Scalar, 3, 3, 0},
	// DATE_DIFF_DAYS(end, start) counts calendar-day boundaries, the days
	// from date(start) to date(end), not elapsed time: 23:00 to 01:00 the
	// next day is 1, 00:00 to 23:59 the same day is 0.
	"DATE_DIFF_DAYS": {"DATE_DIFF_DAYS", Scalar, 2, 2, -1},
	// ELAPSED_SECONDS(end, start) is the time from start to end in seconds
	// (a float, to the millisecond; negative when end is earlier): hours
	// are it / 3600. A date is its midnight; text is read by the
	// text-cast rule as a timestamp (an offset read as the instant in
	// UTC); NULL on NULL or an infinite date.
	"ELAPSED_SECONDS": {"ELAPSED_SECONDS", Scalar, 2, 2, -1},
	// PERIOD_LABEL(unit, x) is the text naming the period of the date or
	// timestamp x, identical on every engine: year 'YYYY', quarter
	// 'YYYY-Qn', month 'YYYY-MM', day 'YYYY-MM-DD'; NULL on NULL. Years
	// 1000-9999 (SQLite's date functions stop at 9999). Text is read as
	// a date by the text-cast rule (NULL when it holds none), as by every
	// date function here.
	"PERIOD_LABEL": {"PERIOD_LABEL", Scalar, 2, 2, 0},
	// CURRENT_DATE and CURRENT_TIMESTAMP are the UTC date and time (to the
	// second) when the query runs; planners are told the run date and
	// write literals instead, so these mostly come from lifted SQL.
	"CURRENT_DATE":      {"CURRENT_DATE", Scalar, 0, 0, -1},
	"CURRENT_TIMESTAMP": {"CURRENT_TIMESTAMP", Scalar, 0, 0, -1},
	// FROM_EPOCH_SECONDS(x) is the UTC timestamp x seconds after
	// 1970-01-01 00:00:00 (Unix time), to the nearest millisecond (as
	// SQLite keeps time): columns that store instants as numbers
	// read as timestamps (milliseconds: x / 1000). NULL on NULL and
	// outside years 1 to 9999; text is read as a number by the text-cast
	// rule (NULL where it holds none).
	"FROM_EPOCH_SECONDS": {"FROM_EPOCH_SECONDS", Scalar, 1, 1, -1},
	// POSITION(text, sub) is the 1-based position of sub in text, 0 when
	// absent, NULL on NULL (SQLite instr, PostgreSQL/DuckDB strpos).
	"POSITION": {"POSITION", Scalar, 2, 2, -1},
	// AT_TIME_ZONE(instant, zone) is the wall-clock time (a timestamp
	// without zone) the instant shows in zone, an IANA name such as
	// 'Europe/London', with that zone's offset on that day (summer time
	// included): DATE_PART('hour', AT_TIME_ZONE(x, 'Europe/London')) of
	// 2024-07-01 06:30 UTC is 7, of 2024-01-15 06:30 UTC it is 6. The
	// instant is a timestamp read as UTC, as a timestamptz and text with an
	// offset already are (text by the text-cast rule); a date is refused.
	// A literal zone must name one (time.LoadLocation's names, exactly
	// spelled); a zone read from a column that names none the engine
	// knows, or NULL, gives NULL. On SQLite, which holds no zone rules,
	// the adapter registers the function that reads Go's tz database.
	"AT_TIME_ZONE": {"AT_TIME_ZONE", Scalar, 2, 2, -1},
}

// DateUnits are the units DATE_ADD and PERIOD_LABEL take.
var DateUnits = []string{"year", "quarter", "month", "day"}

// PartUnits are the units DATE_PART takes. Each means the same on every
// engine: dow is 0 (Sunday) to 6 (Saturday), doy 1 to 366, week the ISO
// 8601 week number 1 to 53 (weeks start on Monday; 2021-01-03 is in week
// 53 of 2020), hour 0 to 23, minute 0 to 59 (0 for a date).
var PartUnits = []string{"year", "quarter", "month", "week", "day", "doy", "dow", "hour", "minute"}

// TruncUnits are the units DATE_TRUNC takes: week truncates to its Monday
// (ISO); hour and minute keep the time, so they take and give timestamps.
var TruncUnits = []string{"year", "quarter", "month", "week", "day", "hour", "minute"}

// UnitsOf lists the units the function named name takes (nil when it
// takes none).
func UnitsOf(name string) []string {
	switch strings.ToUpper(name) {
	case "DATE_PART":
		return PartUnits
	case "DATE_TRUNC":
		return TruncUnits
	case "DATE_ADD", "PERIOD_LABEL":
		return DateUnits
	}
	return nil
}

// Spread maps each standard deviation and variance aggregate to the
// engines' name for it: STDDEV and VARIANCE are the sample forms.
var Spread = map[string]string{"STDDEV_SAMP": "STDDEV_SAMP", "STDDEV_POP": "STDDEV_POP", "VAR_SAMP": "VAR_SAMP",
	"VAR_POP": "VAR_POP", "STDDEV": "STDDEV_SAMP", "VARIANCE": "VAR_SAMP"}

// LookupFunc finds an allow-listed function by case-insensitive name.
func LookupFunc(name string) (FuncSpec, bool) {
	s, ok := Functions[strings.ToUpper(name)]
	return s, ok
}

// TakesArgs is the refusal of a call of name with got arguments where it
// takes min to max (max < 0: no bound), "COUNT takes 0 or 1 argument, got
// 2": every arity message of the lift and the validator reads the same,
// with the noun's number agreeing with its count.
func TakesArgs(name string, min, max, got int) string {
	count := strconv.Itoa(min)
	switch {
	case max < 0:
		count = "at least " + count
	case max == min+1:
		count += " or " + strconv.Itoa(max)
	case max > min:
		count += " to " + strconv.Itoa(max)
	}
	noun := " arguments"
	if max == 1 || min == 1 && max <= 1 {
		noun = " argument"
	}
	return name + " takes " + count + noun + ", got " + strconv.Itoa(got)
}

// IsDateUnit reports whether s is a unit of DATE_ADD and PERIOD_LABEL.
func IsDateUnit(s string) bool {
	for _, u := range DateUnits {
		if u == s {
			return true
		}
	}
	return false
}
