package render

import (
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Postgres renders for PostgreSQL 12 or newer. Fold, when set, names the
// collation UPPER and LOWER (so a case_insensitive like) fold letters
// under: a database whose own LC_CTYPE is C folds only A-Z, and the
// adapter then names one that folds every letter as SQLite and DuckDB do
// (see "UPPER, LOWER and letters beyond ASCII" in the package doc).
type Postgres struct{ Fold string }

func (Postgres) Name() string { return "postgres" }

func (Postgres) Cast(x string, t planast.CastType) string {
	switch t {
	case planast.CastInteger:
		// truncate toward zero as SQLite does; a plain cast would round
		return "CAST(TRUNC(CAST(" + x + " AS NUMERIC)) AS BIGINT)"
	case planast.CastDecimal:
		return "CAST(" + x + " AS NUMERIC)"
	case planast.CastFloat:
		return "CAST(" + x + " AS DOUBLE PRECISION)"
	case planast.CastText:
		return "CAST(" + x + " AS TEXT)"
	case planast.CastBoolean:
		// only integers reach here (planast refuses other sources); PostgreSQL
		// has no bigint-to-boolean cast
		return "(CAST(" + x + " AS BIGINT) <> 0)"
	case planast.CastDate:
		return "CAST(" + x + " AS DATE)"
	case planast.CastTimestamp:
		return "CAST(" + x + " AS TIMESTAMP)"
	}
	return "CAST(" + x + " AS TEXT)"
}

func (Postgres) DateLiteral(q string) string      { return "DATE " + q }
func (Postgres) TimestampLiteral(q string) string { return "TIMESTAMP " + q }

func (Postgres) TrueDiv(l, r string) string {
	return "(CAST(" + l + " AS DOUBLE PRECISION) / NULLIF(" + r + ", 0))"
}

// IntDiv: a quotient beyond int64 (or infinite) fails the cast to bigint
// (22003, ARITHMETIC_OVERFLOW); a NaN one is NULL, as on SQLite, which
// has no NaN.
func (Postgres) IntDiv(l, r string) string {
	return "CAST(TRUNC(NULLIF(CAST(" + l + " AS DOUBLE PRECISION) / NULLIF(" + r + ", 0), CAST('NaN' AS DOUBLE PRECISION))) AS BIGINT)"
}

func (Postgres) ParenthesizeCompound() bool { return true }

// BoolExtreme: PostgreSQL orders booleans but has no MIN or MAX of them.
func (Postgres) BoolExtreme(name, arg, over string) string {
	if name == "MIN" {
		return "BOOL_AND(" + arg + ")" + over
	}
	return "BOOL_OR(" + arg + ")" + over
}

func (p Postgres) Func(name string, a []string) (string, bool) {
	if name == "UPPER" || name == "LOWER" {
		return p.foldCase(name, a[0]), true
	}
	if name == "ELAPSED_SECONDS" {
		return elapsedSeconds(a[0], a[1], "NUMERIC", "DOUBLE PRECISION", true), true
	}
	if name == "DATE_PART" && a[0] == "year" {
		// the year of an infinite timestamp is NULL, as on DuckDB and
		// SQLite, where PostgreSQL's EXTRACT says Infinity, which no
		// integer holds (the other units already give NULL)
		ts := "CAST(" + a[1] + " AS TIMESTAMP)"
		return "(CASE WHEN isfinite(" + ts + ") THEN CAST(EXTRACT(YEAR FROM " + ts + ") AS BIGINT) END)", true
	}
	return pgLikeFunc(name, a, "DOUBLE PRECISION", "NUMERIC", pgShift, func(end, start string) string {
		// NULL over an infinite date, as DuckDB's date_diff and SQLite's
		// julianday give, where PostgreSQL would fail the whole query
		e, s := "CAST("+end+" AS DATE)", "CAST("+start+" AS DATE)"
		return "(CASE WHEN isfinite(" + e + ") AND isfinite(" + s + ") THEN " + e + " - " + s + " END)"
	})
}

// pgShift is the timestamp ts moved by n units on PostgreSQL: a month
// from the 31st lands on the next month's last day.
func pgShift(unit, n, ts string) string {
	switch unit {
	case "year":
		return ts + " + make_interval(years => CAST(" + n + " AS INTEGER))"
	case "quarter":
		return ts + " + make_interval(months => CAST(" + n + " AS INTEGER) * 3)"
	case "month":
		return ts + " + make_interval(months => CAST(" + n + " AS INTEGER))"
	}
	return ts + " + make_interval(days => CAST(" + n + " AS INTEGER))"
}

// elapsedSeconds is ELAPSED_SECONDS on PostgreSQL and DuckDB: the epochs'
// difference, rounded to the millisecond in numeric and given as a
// double. finite guards against an infinite date (NULL, as SQLite's
// julianday gives), where PostgreSQL's epoch is Infinity.
func elapsedSeconds(end, start, numeric, double string, finite bool) string {
	e, s := "CAST("+end+" AS TIMESTAMP)", "CAST("+start+" AS TIMESTAMP)"
	v := "CAST(ROUND(CAST(EXTRACT(EPOCH FROM " + e + ") - EXTRACT(EPOCH FROM " + s + ") AS " + numeric + "), 3) AS " + double + ")"
	if !finite {
		return v
	}
	return "(CASE WHEN isfinite(" + e + ") AND isfinite(" + s + ") THEN " + v + " END)"
}

// pgLikeFunc renders the functions PostgreSQL and DuckDB spell alike; ROUND
// rounds in the type numeric.
func pgLikeFunc(name string, a []string, float, numeric string, add func(unit, n, ts string) string, diff func(end, start string) string) (string, bool) {
	switch name {
	case "PERIOD_LABEL": // DuckDB renders its own
		f, ok := map[string]string{"year": "YYYY", "quarter": `YYYY-"Q"Q`, "month": "YYYY-MM", "day": "YYYY-MM-DD"}[a[0]]
		if !ok {
			return "", false
		}
		// an infinite date is labelled 'infinity' or '-infinity', as
		// DuckDB's strftime labels it, never NULL like a missing date
		ts := "CAST(" + a[1] + " AS TIMESTAMP)"
		return "(CASE WHEN isfinite(" + ts + ") THEN to_char(" + ts + ", '" + f + "') ELSE CAST(" + ts + " AS TEXT) END)", true
	case "SUBSTR":
		// substr takes int4 positions in PostgreSQL: a bigint argument
		// fails; DuckDB's take BIGINT
		t := "INTEGER"
		if float == "DOUBLE" {
			t = "BIGINT"
		}
		return substrSQLite(a, func(x string) string { return "CAST(" + x + " AS " + t + ")" }), true
	case "LEFT", "RIGHT":
		t := "INTEGER"
		if float == "DOUBLE" {
			t = "BIGINT"
		}
		return leftRight(name, a, func(x string) string { return "CAST(" + x + " AS " + t + ")" }), true
	}
	if s, ok := common(name, a); ok {
		return s, true
	}
	switch name {
	case "ROUND":
		// through text: a double's text is its shortest round-trip decimal
		// (extra_float_digits 1, the default), where a cast to numeric
		// keeps 15 digits (4503599627370497 became 4503599627370500); a
		// numeric's text is itself
		x := "CAST(CAST(" + a[0] + " AS TEXT) AS " + numeric + ")"
		if len(a) == 1 {
			return "ROUND(" + x + ")", true
		}
		return "ROUND(" + x + ", CAST(" + a[1] + " AS INTEGER))", true
	case "DATE_PART":
		return "CAST(EXTRACT(" + strings.ToUpper(a[0]) + " FROM CAST(" + a[1] + " AS TIMESTAMP)) AS BIGINT)", true
	case "DATE_TRUNC":
		ts := "CAST(" + a[1] + " AS TIMESTAMP)"
		if a[0] == "hour" || a[0] == "minute" {
			// an infinite timestamp stays itself (DuckDB's date_trunc
			// would return a far finite one)
			return "(CASE WHEN isfinite(" + ts + ") THEN DATE_TRUNC('" + a[0] + "', " + ts + ") ELSE " + ts + " END)", true
		}
		return "CAST(DATE_TRUNC('" + a[0] + "', " + ts + ") AS DATE)", true
	case "DATE_ADD": // the timestamp's form (a date's is addToDate)
		return "CAST(" + pgAddToTimestamp(a[0], a[1], a[2], add) + " AS DATE)", true
	case "DATE_DIFF_DAYS":
		return diff(a[0], a[1]), true
	case "CURRENT_DATE":
		return "CAST(CAST(CURRENT_TIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP) AS DATE)", true
	case "CURRENT_TIMESTAMP":
		return "CAST(DATE_TRUNC('second', CURRENT_TIMESTAMP AT TIME ZONE 'UTC') AS TIMESTAMP)", true
	case "POSITION":
		return "strpos(" + a[0] + ", " + a[1] + ")", true
	case "FROM_EPOCH_SECONDS":
		// floor(v) milliseconds (see writer.scalar) from the epoch, not
		// to_timestamp: that gives an instant in the session's time zone
		// and computes it in a double (microseconds off past 2255). The
		// seconds apart from the milliseconds: an interval times n is
		// computed in a double too, exact for seconds up to 9999 but for
		// milliseconds only up to 4253
		m := "CAST(FLOOR(" + a[0] + ") AS BIGINT)"
		return "(TIMESTAMP '1970-01-01 00:00:00' + " + m + " / 1000 * INTERVAL '1 second' + " + m + " % 1000 * INTERVAL '1 millisecond')", true
	}
	_ = float
	return "", false
}

// foldCase renders UPPER or LOWER of x under the fold collation. The
// result keeps the database's default collation, so comparing or sorting
// it means what it did before. ß upper-cases to ẞ, as on DuckDB and
// SQLite, where PostgreSQL's own rule keeps ß (no one-letter capital).
func (p Postgres) foldCase(name, x string) string {
	if p.Fold != "" {
		x = "(" + name + "(" + x + " COLLATE " + QuoteIdent(p.Fold) + ") COLLATE \"default\")"
	} else {
		x = name + "(" + x + ")"
	}
	if name == "UPPER" {
		return "REPLACE(" + x + ", 'ß', 'ẞ')"
	}
	return x
}
