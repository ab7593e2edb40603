package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Dialect is what differs between engines when rendering a plan. Everything
// else (quoting, clause order, ORDER BY with NULLS, LIMIT/OFFSET, set
// operations) is shared SQL that SQLite ≥ 3.39, DuckDB ≥ 1.0 and PostgreSQL
// ≥ 12 all accept.
type Dialect interface {
	// Name is "sqlite", "duckdb" or "postgres".
	Name() string
	// Cast renders CAST of the rendered expression x to t.
	Cast(x string, t planast.CastType) string
	// DateLiteral and TimestampLiteral wrap an already quoted string.
	DateLiteral(quoted string) string
	TimestampLiteral(quoted string) string
	// TrueDiv renders l / r as floating-point division, NULL when r is 0.
	TrueDiv(l, r string) string
	// IntDiv renders l div r truncated toward zero, NULL when r is 0, for
	// a float or decimal operand (as doubles; two integers divide exactly,
	// see rangeChecker.ExactDiv).
	IntDiv(l, r string) string
	// Func renders a scalar function from the allow-list; unit arguments
	// arrive as bare lower-case unit names. ok is false when unsupported.
	Func(name string, args []string) (sql string, ok bool)
	// ParenthesizeCompound reports whether chained set operations must be
	// parenthesised to evaluate left to right (PostgreSQL and DuckDB give
	// INTERSECT precedence; SQLite has none and rejects the parentheses).
	ParenthesizeCompound() bool
}

// Lookup returns the dialect registered under name.
func Lookup(name string) (Dialect, bool) {
	d, ok := dialects[strings.ToLower(name)]
	return d, ok
}

// Names lists the dialect names in order.
func Names() []string {
	out := make([]string, 0, len(dialects))
	for k := range dialects {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var dialects = map[string]Dialect{
	"sqlite":   SQLite{},
	"postgres": Postgres{},
	"duckdb":   DuckDB{},
}

// substrFromOne renders SUBSTR(x, start[, length]) for a start counted
// from the first character: the positions before it count but yield
// nothing. PostgreSQL's substr works so; SQLite and DuckDB instead count a
// negative start from the end of the string.
func substrFromOne(a []string) string {
	start := "CASE WHEN " + a[1] + " < 1 THEN 1 ELSE " + a[1] + " END"
	if len(a) == 2 {
		return "SUBSTR(" + a[0] + ", " + start + ")"
	}
	end := "(" + a[1] + " + " + a[2] + " - 1)" // the last position taken
	length := "CASE WHEN " + a[1] + " < 1 THEN (CASE WHEN " + end + " < 0 THEN 0 ELSE " + end + " END) ELSE " + a[2] + " END"
	return "SUBSTR(" + a[0] + ", " + start + ", " + length + ")"
}

// substrSQLite renders the plan's SUBSTR (SQLite's meaning: a negative
// start counts from the end, positions before the first character yield
// nothing) with substrFromOne, for engines whose substr differs: a
// negative start becomes the position LENGTH(x) + start + 1 first. cast
// wraps the integer arguments as the engine's substr needs them. A literal
// start of 1 or more needs neither.
//
// A length computed at run time (Validate refuses a negative literal) that
// turns out negative takes the characters before the start, as SQLite's
// does, "SUBSTR('abcdef', 4, -2)" being 'bc': the start moves left by the
// length's size and the length becomes its size. PostgreSQL's substr
// fails on a negative length, and DuckDB's first moves a start beyond the
// end back to the end ('xyz' from 6, 2 leftwards was 'yz' where SQLite gives the empty text).
func substrSQLite(a []string, cast func(string) string) string {
	b := append([]string(nil), a...)
	for i := 1; i < len(b); i++ {
		b[i] = cast(b[i])
	}
	n, err := strconv.ParseInt(a[1], 10, 64)
	switch {
	case err == nil && n >= 1:
		if !computedLength(a) {
			return "SUBSTR(" + strings.Join(b, ", ") + ")"
		}
	case err == nil && n < 0:
		b[1] = cast("(LENGTH(" + a[0] + ") + " + strconv.FormatInt(n+1, 10) + ")")
	case err != nil:
		b[1] = "(CASE WHEN " + b[1] + " < 0 THEN " + cast("LENGTH("+a[0]+")") + " + " + b[1] + " + 1 ELSE " + b[1] + " END)"
	}
	if computedLength(a) {
		b[1] = "(CASE WHEN " + b[2] + " < 0 THEN " + b[1] + " + " + b[2] + " ELSE " + b[1] + " END)"
		b[2] = "ABS(" + b[2] + ")"
	}
	return substrFromOne(b)
}

// computedLength reports whether a SUBSTR's arguments a have a length that
// is not a literal, whose sign only the run knows.
func computedLength(a []string) bool {
	if len(a) < 3 {
		return false
	}
	_, err := strconv.ParseInt(a[2], 10, 64)
	return err != nil
}

// leftRight renders LEFT(x, n) and RIGHT(x, n) as a SUBSTR whose start is
// at least 1 and length at least 0, where every engine agrees; cast wraps
// the integer arguments as the engine's substr needs them.
func leftRight(name string, a []string, cast func(string) string) string {
	n := "(CASE WHEN " + a[1] + " < 0 THEN 0 ELSE " + a[1] + " END)"
	if name == "LEFT" {
		return "SUBSTR(" + a[0] + ", 1, " + cast(n) + ")"
	}
	start := "(CASE WHEN " + a[1] + " >= LENGTH(" + a[0] + ") THEN 1 ELSE LENGTH(" + a[0] + ") - " + a[1] + " + 1 END)"
	return "SUBSTR(" + a[0] + ", " + cast(start) + ", " + cast(n) + ")"
}

// common renders the functions whose SQL is the same on all three engines.
func common(name string, args []string) (string, bool) {
	switch name {
	case "COALESCE", "NULLIF", "ABS", "UPPER", "LOWER", "TRIM", "LENGTH", "SUBSTR", "REPLACE":
		return name + "(" + strings.Join(args, ", ") + ")", true
	case "CONCAT":
		// NULL in, NULL out on every engine (PostgreSQL's concat() would skip NULLs).
		return "(" + strings.Join(args, " || ") + ")", true
	}
	return "", false
}
