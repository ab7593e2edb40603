package lift

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// zoned reports whether e is a timestamp with time zone to PostgreSQL and
// DuckDB: a timestamptz column (or an output column of one), the current
// time, x AT TIME ZONE 'UTC' of a timestamp without zone, and MIN, MAX or
// an interval shift of one. The plan reads each as its UTC time; the
// difference matters to AT TIME ZONE, which means opposite things of the
// two kinds, and to a literal with an offset compared with one.
func (l *lifter) zoned(e planast.Expr) bool {
	if l.instants[e] {
		return true
	}
	switch x := e.(type) {
	case *planast.Column:
		return l.columnInfo(x).zoned
	case *planast.Subquery:
		cols := l.outCols[x.Query]
		return len(cols) == 1 && cols[0].zoned
	case *planast.Func:
		switch x.Name {
		case "MIN", "MAX":
			return len(x.Args) == 1 && l.zoned(x.Args[0])
		case "DATE_ADD":
			return len(x.Args) == 3 && l.zoned(x.Args[2])
		}
	}
	return false
}

// instant marks e, a timestamp the plan reads in UTC, as one with time
// zone in the SQL (see zoned).
func (l *lifter) instant(e planast.Expr) planast.Expr {
	if l.instants == nil {
		l.instants = map[planast.Expr]bool{}
	}
	l.instants[e] = true
	return e
}

// currentTimestamp is PostgreSQL's and DuckDB's current_timestamp and
// now(): the instant the query runs, which the plan's CURRENT_TIMESTAMP is
// in UTC.
func (l *lifter) currentTimestamp() planast.Expr {
	return l.instant(call("CURRENT_TIMESTAMP"))
}

// notZonedHint says what x AT TIME ZONE z means of a timestamp without
// zone and what to write for the plan's AT_TIME_ZONE.
const notZonedHint = "of a timestamp without time zone, x AT TIME ZONE z reads x as the local time in z and gives that instant, " +
	"the inverse of the plan's AT_TIME_ZONE (which reads x in UTC and gives its wall clock in z); " +
	"for the wall clock in z of times stored in UTC write (x AT TIME ZONE 'UTC') AT TIME ZONE z, which lifts as AT_TIME_ZONE(x, z); " +
	"the instant of a local time has no plan equivalent"

// atTimeZone lifts x AT TIME ZONE zone, which PostgreSQL's parser reads as
// timezone(zone, x), as the function written so is. Of an instant (see
// zoned) it is the wall clock the instant shows in zone: the plan's
// AT_TIME_ZONE(x, zone). Of a timestamp without zone it is the inverse,
// the instant at which zone's clocks show x: lifted only where zone is
// UTC, as x itself marked an instant (the plan reads x in UTC), so that
// (x AT TIME ZONE 'UTC') AT TIME ZONE z is AT_TIME_ZONE(x, z).
func (l *lifter) atTimeZone(f *pg.FuncCall, sc *scope) planast.Expr {
	if len(f.Args) != 2 {
		l.unsupportedHint(f.Location, "name the zone: x AT TIME ZONE 'Europe/London' (an IANA name)", "AT LOCAL (the session's time zone)")
	}
	zone := l.value(f.Args[0], sc)
	if t := l.typeOf(zone); t != planast.TypeText && t != planast.TypeUnknown {
		l.unsupportedHint(f.Location, "name the zone by its IANA name ('Europe/London') or a text column of them", "AT TIME ZONE with a zone that is a %s", t)
	}
	x := l.value(f.Args[1], sc)
	switch t := l.typeOf(x); {
	case l.zoned(x):
		return call("AT_TIME_ZONE", x, zone)
	case t == planast.TypeTimestamp:
		if lit, ok := zone.(*planast.Literal); ok && lit.Type == planast.TString && utcZone(lit.Text) {
			return l.instant(x)
		}
		l.unsupportedHint(f.Location, notZonedHint, "AT TIME ZONE of a timestamp without time zone")
	case t == planast.TypeDate:
		l.unsupportedHint(f.Location, "a date has no time of day to convert: use it as it is, or for its midnight in UTC write (CAST(x AS timestamp) AT TIME ZONE 'UTC') AT TIME ZONE z",
			"AT TIME ZONE of a date")
	default:
		l.unsupportedHint(f.Location, "for text holding UTC times write (CAST(x AS timestamp) AT TIME ZONE 'UTC') AT TIME ZONE z, the plan's AT_TIME_ZONE(x, z)",
			"AT TIME ZONE of a %s", t)
	}
	return nil
}

// noZoneRules refuses x AT TIME ZONE z (or timezone(z, x)) of SQLite SQL
// as what it is: SQLite's SQL has no time-zone conversion. The plan's
// AT_TIME_ZONE runs on SQLite (the adapter registers its function), so
// the refusal names the plan form to write by hand.
func (l *lifter) noZoneRules(f *pg.FuncCall) {
	what := "AT TIME ZONE"
	if f.Funcformat != pg.CoercionForm_COERCE_SQL_SYNTAX {
		what = "timezone(zone, x)"
	}
	panic(&Unsupported{Construct: what, Pos: l.src.OrigPos(int(f.Location)),
		Unavailable: "SQLite has no time-zone conversion (AT TIME ZONE is PostgreSQL's and DuckDB's SQL)",
		Hint:        `write AT_TIME_ZONE(x, zone), the plan's {"kind":"func","name":"AT_TIME_ZONE","args":[x, zone]}, which lifts and SQLite runs: the wall clock of the instant x in zone`})
}

// utcZone reports whether PostgreSQL reads zone as UTC itself.
func utcZone(zone string) bool {
	switch strings.ToLower(strings.TrimSpace(zone)) {
	case "utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "universal", "etc/universal":
		return true
	}
	return false
}

// Interval field masks of PostgreSQL's INTERVAL 'n' unit typmod
// (datetime.h: INTERVAL_MASK(YEAR), MONTH, DAY).
const (
	intervalYear  = 1 << 2
	intervalMonth = 1 << 1
	intervalDay   = 1 << 3
)

// intervalRe reads an interval literal of one unit: '30 days', '-1 month'.
var intervalRe = regexp.MustCompile(`^([+-]?\d+)\s*([a-z]+)$`)

// intervalUnits maps PostgreSQL's spellings of the units DATE_ADD has
// (and weeks, seven days each) to the plan's unit and a multiplier.
var intervalUnits = map[string]struct {
	unit string
	mul  int64
}{
	"year": {"year", 1}, "years": {"year", 1}, "yr": {"year", 1}, "yrs": {"year", 1}, "y": {"year", 1},
	"month": {"month", 1}, "months": {"month", 1}, "mon": {"month", 1}, "mons": {"month", 1},
	"week": {"day", 7}, "weeks": {"day", 7}, "w": {"day", 7},
	"day": {"day", 1}, "days": {"day", 1}, "d": {"day", 1},
}

// intervalHint names the plan's way to shift a time.
const intervalHint = "the plan shifts a date or timestamp with DATE_ADD('year'|'quarter'|'month'|'day', n, x); an interval of one of those units " +
	"(x - interval '30 days') lifts as it; for hours, minutes or seconds write FROM_EPOCH_SECONDS(ELAPSED_SECONDS(x, '1970-01-01 00:00:00') + seconds)"

// isInterval reports whether n is a cast to interval (INTERVAL '30 days').
func isInterval(n *pg.Node) bool {
	tc := n.GetTypeCast()
	if tc == nil || tc.TypeName == nil || len(tc.TypeName.Names) == 0 {
		return false
	}
	return strings.EqualFold(tc.TypeName.Names[len(tc.TypeName.Names)-1].GetString_().GetSval(), "interval")
}

// shift lifts x + interval, interval + x and x - interval, of an interval
// literal of one unit, as DATE_ADD(unit, ±n, x); a date shifted is a
// timestamp in PostgreSQL and DuckDB, so it is cast to one. It returns
// nil when neither operand is an interval.
func (l *lifter) shift(op string, a *pg.A_Expr, sc *scope) planast.Expr {
	var xn, in *pg.Node
	switch {
	case isInterval(a.Rexpr) && (op == "+" || op == "-"):
		xn, in = a.Lexpr, a.Rexpr
	case isInterval(a.Lexpr) && op == "+":
		xn, in = a.Rexpr, a.Lexpr
	case isInterval(a.Lexpr) || isInterval(a.Rexpr):
		l.unsupportedHint(a.Location, intervalHint, "interval arithmetic (%s)", op)
	default:
		return nil
	}
	unit, n := l.interval(in.GetTypeCast())
	if op == "-" {
		n = -n
	}
	x := l.value(xn, sc)
	t := l.typeOf(x)
	if !t.IsTemporal() {
		l.unsupportedHint(a.Location, "shift a date or timestamp column or cast: DATE_ADD('day', n, CAST(x AS timestamp))", "an interval added to a %s", t)
	}
	out := planast.Expr(call("DATE_ADD", &planast.Literal{Type: planast.TString, Text: unit}, &planast.Literal{Type: planast.TInteger, Int: n}, x))
	if t == planast.TypeDate {
		out = &planast.Cast{Expr: out, Type: planast.CastTimestamp}
	}
	return out
}

// dayShift lifts PostgreSQL's and DuckDB's date + n, n + date and
// date - n, of an integer n, as DATE_ADD('day', ±n, date): both engines
// read the integer as days and give a date (CURRENT_DATE - 7 is a week
// ago). It returns nil for anything else, which arith then reads as
// numbers: SQLite's date - 7 reads the date's leading number, and a
// timestamp plus an integer, n - date and date + 1.5 are errors on
// PostgreSQL and DuckDB, refused there too.
func (l *lifter) dayShift(op string, x, y planast.Expr) planast.Expr {
	if l.sqlite() || op != "+" && op != "-" {
		return nil
	}
	d, n := x, y
	if op == "+" && l.typeOf(x) == planast.TypeInteger {
		d, n = y, x
	}
	if l.typeOf(d) != planast.TypeDate || l.typeOf(n) != planast.TypeInteger {
		return nil
	}
	if op == "-" {
		if lit, ok := n.(*planast.Literal); ok && lit.Type == planast.TInteger {
			n = &planast.Literal{Type: planast.TInteger, Int: -lit.Int}
		} else {
			n = &planast.Unary{Op: "-", Expr: n}
		}
	}
	return call("DATE_ADD", &planast.Literal{Type: planast.TString, Text: "day"}, n, d)
}

// interval reads an interval literal of one unit DATE_ADD has: '30 days',
// '1 month', '2 weeks', or '30' with a unit of its own (INTERVAL '30'
// DAY).
func (l *lifter) interval(tc *pg.TypeCast) (unit string, n int64) {
	s, ok := l.stringArg(tc.Arg)
	if !ok {
		l.unsupportedHint(tc.Location, intervalHint, "an interval that is not a literal")
	}
	text := strings.ToLower(strings.TrimSpace(s))
	if mods := tc.TypeName.Typmods; len(mods) > 0 {
		mask := mods[0].GetAConst().GetIval().GetIval()
		u := map[int32]string{intervalYear: "year", intervalMonth: "month", intervalDay: "day"}[mask]
		k, err := strconv.ParseInt(text, 10, 64)
		if u == "" || err != nil {
			l.unsupportedHint(tc.Location, intervalHint, "the interval %q", truncateName(s, 40))
		}
		return u, k
	}
	m := intervalRe.FindStringSubmatch(text)
	if m == nil {
		l.unsupportedHint(tc.Location, intervalHint, "the interval %q (not a whole number of one unit)", truncateName(s, 40))
	}
	u, ok := intervalUnits[m[2]]
	k, err := strconv.ParseInt(m[1], 10, 64)
	if !ok || err != nil || k > 1<<40 || k < -(1<<40) {
		l.unsupportedHint(tc.Location, intervalHint, "the interval %q", truncateName(s, 40))
	}
	return u.unit, k * u.mul
}

// offsetLayouts are the timestamps with a UTC offset PostgreSQL reads
// ('2024-01-01 10:00:00+02', '…+02:00', '…Z'), after offsetText.
var offsetLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04Z07:00", "2006-01-02 15:04Z0700", "2006-01-02 15:04Z07",
}

// offsetSpace is the space some write before the offset.
var offsetSpace = regexp.MustCompile(`\s+([+-]\d|[zZ]$)`)

// offsetTimestamp reads text of a timestamp with a UTC offset, returning
// the UTC time and the time as written, each as a plan timestamp literal.
func offsetTimestamp(s string) (utc, written string, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && s[10] == 'T' {
		s = s[:10] + " " + s[11:]
	}
	s = strings.ToUpper(offsetSpace.ReplaceAllString(s, "$1"))
	for _, layout := range offsetLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			const plain = "2006-01-02 15:04:05.999999999"
			return t.UTC().Format(plain), t.Format(plain), true
		}
	}
	return "", "", false
}

// offsetLiteral makes *p, text of a timestamp with a UTC offset compared
// with the timestamp other, the timestamp literal the dialect compares:
// with an instant (see zoned), its UTC time, as the plan reads instants;
// with a timestamp without zone, PostgreSQL drops the offset (the time as
// written), and DuckDB's reading is refused with the UTC time to write.
// The plan's timestamp literals carry no zone.
func (l *lifter) offsetLiteral(p *planast.Expr, other planast.Expr, pos int32) {
	lit, ok := (*p).(*planast.Literal)
	if !ok || lit.Type != planast.TString || l.sqlite() {
		return
	}
	utc, written, ok := offsetTimestamp(lit.Text)
	switch {
	case !ok:
		return
	case l.zoned(other):
		*p = &planast.Literal{Type: planast.TTimestamp, Text: utc}
	case l.dialect == DialectPostgres:
		*p = &planast.Literal{Type: planast.TTimestamp, Text: written}
	default:
		l.unsupportedHint(pos, fmt.Sprintf("write the time the column holds, without the offset: '%s' if it holds UTC times", utc),
			"a timestamp with a UTC offset compared with a timestamp without time zone")
	}
}

// zonedLiteral lifts TIMESTAMPTZ 'text' (CAST('text' AS timestamptz)): an
// instant, its UTC time a plan timestamp literal (text without an offset
// is read in the session's zone, UTC on every datasource).
func (l *lifter) zonedLiteral(tc *pg.TypeCast) planast.Expr {
	s, ok := l.stringArg(tc.Arg)
	if ok {
		if utc, _, ok := offsetTimestamp(s); ok {
			return l.instant(&planast.Literal{Type: planast.TTimestamp, Text: utc})
		}
		if t := strings.Replace(strings.TrimSpace(s), "T", " ", 1); validTimestamp(t) {
			return l.instant(&planast.Literal{Type: planast.TTimestamp, Text: t})
		}
	}
	l.unsupportedHint(tc.Location, "a timestamp literal in the plan is a UTC time: write it as 'YYYY-MM-DD HH:MM:SS' in UTC",
		"a cast to timestamptz of anything but a timestamp literal")
	return nil
}
