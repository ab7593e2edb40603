package render

import (
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// SQLite renders for SQLite 3.46 or newer (modernc.org/sqlite embeds one).
// Dates are ISO-8601 text and date functions go through strftime/date.
// LIKE is case-sensitive because the adapter sets PRAGMA case_sensitive_like.
type SQLite struct{}

func (SQLite) Name() string { return "sqlite" }

func (SQLite) Cast(x string, t planast.CastType) string {
	switch t {
	case planast.CastInteger:
		return "CAST(" + x + " AS INTEGER)"
	case planast.CastDecimal:
		return "CAST(" + x + " AS NUMERIC)"
	case planast.CastFloat:
		return "CAST(" + x + " AS REAL)"
	case planast.CastText:
		return "CAST(" + x + " AS TEXT)"
	case planast.CastBoolean:
		return "(CAST(" + x + " AS INTEGER) <> 0)"
	case planast.CastDate:
		return "date(" + x + ")"
	case planast.CastTimestamp:
		return sqliteTimestamp(x)
	}
	return "CAST(" + x + " AS TEXT)"
}

// TemporalOperand puts an operand of a date or timestamp comparison in one
// shape: SQLite stores both as ISO text of several shapes ('2024-03-01',
// '2024-03-01 10:00:00', '2024-03-01T10:00:00.5'), and as text
// '2024-03-01' < '2024-03-01 00:00:00'. A date becomes date(x)
// ('YYYY-MM-DD'), a timestamp strftime('%Y-%m-%d %H:%M:%f', x)
// ('YYYY-MM-DD HH:MM:SS.SSS', to the millisecond, as SQLite keeps time).
// A literal is written in that shape directly; NULL stays NULL. A stored
// value that SQLite's date functions cannot read (text that is no ISO date)
// becomes NULL, so the comparison is NULL and the row does not match
// (neither with = nor with !=); a number is read as a Julian day number.
func (SQLite) TemporalOperand(x string, e planast.Expr, t planast.Type) string {
	lit, _ := e.(*planast.Literal)
	switch {
	case lit != nil && lit.Type == planast.TNull:
		return x
	case t == planast.TypeDate:
		if lit != nil && lit.Type == planast.TDate || sqliteDateShaped(e) {
			return x // already YYYY-MM-DD
		}
		return "date(" + x + ")"
	}
	if lit != nil && lit.Type == planast.TTimestamp {
		if s, ok := millis(lit.Text); ok {
			return QuoteString(s)
		}
	}
	return "strftime('%Y-%m-%d %H:%M:%f', " + x + ")"
}

// sqliteDateShaped reports whether e renders through SQLite's date(), whose
// result is YYYY-MM-DD already.
func sqliteDateShaped(e planast.Expr) bool {
	switch e := e.(type) {
	case *planast.Cast:
		return e.Type == planast.CastDate
	case *planast.Func:
		switch strings.ToUpper(e.Name) {
		case "CURRENT_DATE":
			return true
		case "DATE_ADD": // of a timestamp it keeps the time
			return e.Temporal != planast.TypeTimestamp
		case "DATE_TRUNC": // to the hour or minute it is a timestamp
			lit, ok := e.Args[0].(*planast.Literal)
			return ok && lit.Text != "hour" && lit.Text != "minute"
		}
	}
	return false
}

// millis writes the timestamp literal text s ('YYYY-MM-DD HH:MM:SS' with up
// to three fractional digits) as strftime's %f form does; ok is false for
// finer fractions, which SQLite itself rounds.
func millis(s string) (string, bool) {
	if len(s) < 19 {
		return "", false
	}
	frac := strings.TrimPrefix(s[19:], ".")
	if len(frac) > 3 || (frac == "" && len(s) > 19) {
		return "", false
	}
	return s[:19] + "." + frac + strings.Repeat("0", 3-len(frac)), true
}

func (SQLite) DateLiteral(q string) string      { return q }
func (SQLite) TimestampLiteral(q string) string { return q }

func (SQLite) TrueDiv(l, r string) string {
	return "(CAST(" + l + " AS REAL) / NULLIF(" + r + ", 0))"
}

// IntDiv: SQLite's cast of a real beyond int64 clamps to its bounds (and
// of an infinity to them too), where PostgreSQL and DuckDB fail; a
// quotient outside [-2^63, 2^63) raises through overflowError instead. A
// NaN quotient (infinity div infinity) is NULL in SQLite already.
func (SQLite) IntDiv(l, r string) string {
	q := "(CAST(" + l + " AS REAL) / NULLIF(" + r + ", 0))"
	return "CAST(CASE WHEN " + q + " >= 9223372036854775808.0 OR " + q + " < -9223372036854775808.0 THEN " + overflowError + " ELSE " + q + " END AS INTEGER)"
}

func (SQLite) ParenthesizeCompound() bool { return false }

// sqliteUnitFmt is the strftime format of each DATE_PART unit but quarter:
// %w is 0 (Sunday) to 6, %j the day of the year, %V the ISO week (SQLite
// 3.46 and later; modernc embeds a newer one).
var sqliteUnitFmt = map[string]string{"year": "%Y", "month": "%m", "day": "%d", "week": "%V", "doy": "%j", "dow": "%w", "hour": "%H", "minute": "%M"}

func (SQLite) Func(name string, a []string) (string, bool) {
	switch name {
	case "UPPER", "LOWER":
		// SQLite's own fold A-Z only; the adapter registers these, which
		// fold every letter (internal/source/sqlitefold)
		return "unicode_" + strings.ToLower(name) + "(" + a[0] + ")", true
	case "SUBSTR": // the plan's SUBSTR means what SQLite's does
		return "SUBSTR(" + strings.Join(a, ", ") + ")", true
	case "LEFT", "RIGHT":
		return leftRight(name, a, func(x string) string { return x }), true
	case "PERIOD_LABEL":
		x := a[1]
		label, ok := sqlitePeriod(a[0], x)
		// a date stored as 'infinity' keeps that label, as on PostgreSQL
		// and DuckDB, instead of a NULL that merges with missing dates
		return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x + " ELSE " + label + " END)", ok
	}
	if s, ok := common(name, a); ok {
		return s, true
	}
	switch name {
	case "ROUND":
		x := roundHalfShown(a[0])
		if len(a) == 1 {
			return "ROUND(" + x + ")", true
		}
		return "ROUND(" + x + ", " + a[1] + ")", true
	case "DATE_PART":
		x := a[1]
		if a[0] == "quarter" {
			return "((CAST(strftime('%m', " + x + ") AS INTEGER) + 2) / 3)", true
		}
		f, ok := sqliteUnitFmt[a[0]]
		if !ok {
			return "", false
		}
		return "CAST(strftime('" + f + "', " + x + ") AS INTEGER)", true
	case "DATE_TRUNC":
		x := a[1]
		var v string
		switch a[0] {
		case "year":
			v = "date(" + x + ", 'start of year')"
		case "month":
			v = "date(" + x + ", 'start of month')"
		case "day":
			v = "date(" + x + ")"
		case "quarter":
			v = "date(" + x + ", 'start of month', '-' || ((CAST(strftime('%m', " + x + ") AS INTEGER) - 1) % 3) || ' months')"
		case "week": // back to Monday: %u is 1 (Monday) to 7 (Sunday)
			v = "date(" + x + ", '-' || (CAST(strftime('%u', " + x + ") AS INTEGER) - 1) || ' days')"
		case "hour", "minute":
			f := map[string]string{"hour": "%Y-%m-%d %H:00:00", "minute": "%Y-%m-%d %H:%M:00"}[a[0]]
			v = "strftime('" + f + "', " + x + ")"
		default:
			return "", false
		}
		// an infinite date or timestamp (PostgreSQL's text for it, copied
		// here) truncates to itself, as on PostgreSQL and DuckDB
		return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x + " ELSE " + v + " END)", true
	case "DATE_ADD":
		n, x := a[1], a[2]
		v, ok := map[string]string{
			"year":    "date(" + x + ", (" + n + ") || ' years', 'floor')",
			"quarter": "date(" + x + ", ((" + n + ") * 3) || ' months', 'floor')",
			"month":   "date(" + x + ", (" + n + ") || ' months', 'floor')",
			"day":     "date(" + x + ", (" + n + ") || ' days')",
		}[a[0]]
		if !ok {
			return "", false
		}
		// an infinite date stays itself, as on PostgreSQL and DuckDB; one
		// outside years 1 to 9999 is NULL, as there (pgAddInYears): date()
		// is NULL past 9999 but writes year 0, and an amount past the
		// years' span is cut as AddToTimestamp cuts it
		return "(CASE WHEN " + x + " IN ('infinity', '-infinity') THEN " + x +
			" WHEN (" + n + ") BETWEEN -" + yearsOne9999 + " AND " + yearsOne9999 + " AND " + v + " >= '0001-01-01' THEN " + v + " END)", true
	case "DATE_DIFF_DAYS":
		return "CAST(julianday(date(" + a[0] + ")) - julianday(date(" + a[1] + ")) AS INTEGER)", true
	case "ELAPSED_SECONDS":
		// julianday is a double of days: to the millisecond, as the
		// others give it
		return "ROUND((julianday(" + a[0] + ") - julianday(" + a[1] + ")) * 86400, 3)", true
	case "CURRENT_DATE":
		return "date('now')", true
	case "CURRENT_TIMESTAMP":
		return "datetime('now')", true
	case "FROM_EPOCH_SECONDS":
		// the epoch plus floor(v) milliseconds (see writer.scalar), whole
		// and so exact for 'unixepoch'; written as datetime() writes a
		// whole second and PostgreSQL and DuckDB write a fraction (no
		// trailing zeros): 1.5 is '1970-01-01 00:00:01.5', 1 is
		// '1970-01-01 00:00:01'
		return "rtrim(rtrim(strftime('%Y-%m-%d %H:%M:%f', floor(" + a[0] + ") / 1000, 'unixepoch'), '0'), '.')", true
	case "POSITION":
		return "instr(" + a[0] + ", " + a[1] + ")", true
	}
	return "", false
}

// sqlitePeriod is the SQLite label of x's period unit.
func sqlitePeriod(unit, x string) (string, bool) {
	switch unit {
	case "year":
		return "strftime('%Y', " + x + ")", true
	case "month":
		return "strftime('%Y-%m', " + x + ")", true
	case "day":
		return "strftime('%Y-%m-%d', " + x + ")", true
	case "quarter":
		return "(strftime('%Y', " + x + ") || '-Q' || ((CAST(strftime('%m', " + x + ") AS INTEGER) + 2) / 3))", true
	}
	return "", false
}

// AvgInt sums the high and low 32 bits of each integer apart, so neither
// sum passes int64 before 2^31 rows, and joins them in one rounding to a
// double: the exact sum, correctly rounded, as PostgreSQL's numeric and
// DuckDB's HUGEINT sums give it, where SUM(x) would raise "integer
// overflow" over values near int64's bounds.
func (SQLite) AvgInt(x, over string) string {
	hi := "SUM((" + x + ") >> 32)" + over
	lo := "SUM((" + x + ") & 4294967295)" + over
	return "((CAST(" + hi + " AS REAL) * 4294967296.0 + " + lo + ") / NULLIF(COUNT(" + x + ")" + over + ", 0))"
}
