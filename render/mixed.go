package render

import (
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// A SQLite column stores any value whatever its declared type: 'abc' or
// 'n/a' in an INTEGER column, 2024-02-30 or 45000 in a DATE column. SQLite
// computes with them (SUM counts 'abc' as 0, and text sorts above every
// number), where PostgreSQL and DuckDB cannot hold them at all. A column
// whose profile found such values (schema.ColumnProfile.Invalid, counted
// with Valid) is read through ReadAs in every plan, so a value that is not
// of its type means one thing on every engine: NULL, as the cast rule reads
// text that holds no number or date (textcast.go). Columns whose values
// are all of their type render as before, so their indexes still serve.

// boolTrue and boolFalse are the texts, lower case and trimmed of
// spaces, that ReadAs reads as a boolean in a SQLite boolean column:
// PostgreSQL's own spellings of one.
var boolTrue, boolFalse = []string{"t", "true", "y", "yes", "on", "1"}, []string{"f", "false", "n", "no", "off", "0"}

// ReadsTrue reports whether ReadAs reads the text s, stored in a SQLite
// boolean column, as true, where SQLite itself takes it for a number
// (0, so false, but for '1').
func ReadsTrue(s string) bool {
	return slices.Contains(boolTrue, strings.ToLower(strings.Trim(s, " ")))
}

// ReadsFalse reports whether ReadAs reads the text s, stored in a SQLite
// boolean column, as false.
func ReadsFalse(s string) bool {
	return slices.Contains(boolFalse, strings.ToLower(strings.Trim(s, " ")))
}

// sqlList is texts as a list of SQL string literals.
func sqlList(texts []string) string {
	q := make([]string, len(texts))
	for i, t := range texts {
		q[i] = QuoteString(t)
	}
	return strings.Join(q, ", ")
}

// ReadAs is column expression x of type t read as that type: on SQLite, a
// number as it is, text by the cast rule for t (a well-formed number, date
// or timestamp, else NULL; a date is its first ten characters; 'infinity'
// and '-infinity' are the infinite ones PostgreSQL and DuckDB hold) and
// anything else NULL; on the other engines, which
// cannot store a value that is not of the column's type, x itself. Types
// other than numbers, dates and timestamps are x itself.
func ReadAs(d Dialect, x string, t planast.Type) string {
	if d.Name() != "sqlite" {
		return x
	}
	switch {
	case t.IsNumeric():
		return "(CASE WHEN typeof(" + x + ") IN ('integer', 'real') THEN " + x + " ELSE " + numberCast(d, x, planast.CastType(t)) + " END)"
	case t == planast.TypeDate:
		// a date is its day, as PostgreSQL and DuckDB store it
		return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x + " WHEN " + sqliteTemporal(x, planast.CastDate) + " THEN substr(" + x + ", 1, 10) END)"
	case t == planast.TypeBoolean:
		// 1 and 0, as SQLite stores TRUE and FALSE, and the text
		// PostgreSQL reads as a boolean ('true', 'yes', 'f', …): what a
		// boolean column of the other engines could hold
		return "(CASE WHEN " + x + " IN (0, 1) THEN " + x + " WHEN typeof(" + x + ") = 'text' THEN (CASE WHEN lower(trim(" + x + ")) IN (" + sqlList(boolTrue) + ") THEN 1 WHEN lower(trim(" + x + ")) IN (" + sqlList(boolFalse) + ") THEN 0 END) END)"
	case t == planast.TypeTimestamp:
		// as stored (datetime() would drop a fraction of a second), but
		// for a value with Z or a UTC offset: the instant in UTC, as the
		// others store it, so that it sorts and compares among the rest
		utc := "(CASE WHEN strftime('%f', " + x + ") LIKE '%.000' THEN datetime(" + x + ") ELSE strftime('%Y-%m-%d %H:%M:%f', " + x + ") END)"
		return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x + " WHEN " + sqliteTemporal(x, planast.CastTimestamp) +
			" THEN (CASE WHEN " + sqliteSuffixed(x) + " THEN " + utc + " ELSE " + x + " END) END)"
	}
	return x
}

// Valid is a SQLite condition, true when the non-NULL value of column
// expression x reads as type t through ReadAs (not as NULL). Profiling
// counts the values for which it is false.
func Valid(x string, t planast.Type) string {
	return "(" + ReadAs(SQLite{}, x, t) + " IS NOT NULL)"
}
