package lift

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// funcCall lifts a function call. SQLite functions map onto the plan's
// allow-list only where the meaning is the same: ifnull → COALESCE, iif →
// CASE, date(x) → CAST AS date, datetime(x) → CAST AS timestamp,
// strftime('%Y'|'%m'|'%d', x) → DATE_PART (see strftime), julianday(a) -
// julianday(b) → DATE_DIFF_DAYS for dates and ELAPSED_SECONDS / 86400.0
// for times (see julianDiff); date|datetime(x, 'unixepoch') and
// PostgreSQL's and DuckDB's to_timestamp(x) of whole seconds →
// FROM_EPOCH_SECONDS (see epoch); the plan language's own ELAPSED_SECONDS,
// DATE_DIFF_DAYS, PERIOD_LABEL, FROM_EPOCH_SECONDS and DATE_ADD(unit, n, x)
// lift as themselves.
// Anything else is refused by name.
func (l *lifter) funcCall(f *pg.FuncCall, sc *scope) planast.Expr {
	name := strings.ToLower(opName(f.Funcname))
	if f.Over != nil {
		return l.window(f, name, sc)
	}
	switch {
	case f.AggFilter != nil:
		return l.aggFilter(f, name, sc)
	case len(f.AggOrder) > 0 || f.AggWithinGroup:
		l.unsupported(f.Location, "ORDER BY inside an aggregate")
	case f.FuncVariadic:
		l.unsupported(f.Location, "VARIADIC")
	}
	args := f.Args
	nargs := func(min, max int) {
		if len(args) < min || len(args) > max {
			l.fail(f.Location, "%s", planast.TakesArgs(name, min, max, len(args)))
		}
	}
	if f.AggDistinct && name != "count" && name != "sum" && name != "avg" && name != "min" && name != "max" {
		l.unsupported(f.Location, "DISTINCT in %s", name)
	}
	call := func(fn string, es ...planast.Expr) *planast.Func {
		return &planast.Func{Name: fn, Args: es}
	}
	switch name {
	case "count":
		if f.AggStar {
			return call("COUNT")
		}
		nargs(1, 1)
		e := l.value(args[0], sc)
		if lit, ok := e.(*planast.Literal); ok && lit.Type != planast.TNull && !f.AggDistinct {
			return call("COUNT") // count(1): every row
		}
		return &planast.Func{Name: "COUNT", Args: []planast.Expr{e}, Distinct: f.AggDistinct}
	case "sum", "avg":
		nargs(1, 1)
		e := l.numeric(l.expr(args[0], sc), f.Location)
		return &planast.Func{Name: strings.ToUpper(name), Args: []planast.Expr{e}, Distinct: f.AggDistinct}
	case "min", "max":
		if len(args) != 1 {
			l.unsupported(f.Location, "scalar %s of several values", strings.ToUpper(name))
		}
		return &planast.Func{Name: strings.ToUpper(name), Args: []planast.Expr{l.value(args[0], sc)}, Distinct: f.AggDistinct}
	case "abs":
		nargs(1, 1)
		return call("ABS", l.numeric(l.expr(args[0], sc), f.Location))
	case "round":
		nargs(1, 2)
		out := call("ROUND", l.numeric(l.expr(args[0], sc), f.Location))
		if len(args) == 2 {
			out.Args = append(out.Args, l.numeric(l.expr(args[1], sc), f.Location))
		}
		return out
	case "upper", "lower", "length":
		nargs(1, 1)
		return call(strings.ToUpper(name), l.text(l.value(args[0], sc), f.Location))
	case "trim", "btrim":
		if len(args) != 1 {
			l.unsupported(f.Location, "TRIM of other characters than spaces")
		}
		return call("TRIM", l.text(l.value(args[0], sc), f.Location))
	case "replace":
		nargs(3, 3)
		return call("REPLACE", l.text(l.value(args[0], sc), f.Location), l.text(l.value(args[1], sc), f.Location), l.text(l.value(args[2], sc), f.Location))
	case "instr":
		nargs(2, 2)
		return call("POSITION", l.text(l.value(args[0], sc), f.Location), l.text(l.value(args[1], sc), f.Location))
	case "substr", "substring":
		nargs(2, 3)
		out := call("SUBSTR", l.text(l.value(args[0], sc), f.Location))
		for i, a := range args[1:] {
			e := l.numeric(l.expr(a, sc), f.Location)
			if lit, ok := e.(*planast.Literal); ok && lit.Type == planast.TInteger {
				switch {
				case i == 1 && lit.Int < 0:
					l.unsupported(f.Location, "SUBSTR with a negative length")
				case i == 0 && lit.Int < 1 && !l.sqlite():
					// PostgreSQL counts positions before the first
					// character; the plan's SUBSTR counts a negative start
					// from the end, as SQLite does
					l.unsupported(f.Location, "PostgreSQL SUBSTR with a start below 1")
				}
			}
			out.Args = append(out.Args, e)
		}
		return out
	case "left", "right":
		nargs(2, 2)
		n := l.numeric(l.expr(args[1], sc), f.Location)
		if lit, ok := n.(*planast.Literal); ok && lit.Type == planast.TInteger && lit.Int < 0 {
			// PostgreSQL's left(x, -n) drops the last n characters
			l.unsupported(f.Location, "%s with a negative count", strings.ToUpper(name))
		}
		return call(strings.ToUpper(name), l.text(l.value(args[0], sc), f.Location), n)
	case "to_char":
		return l.toChar(f, sc)
	case "ifnull", "coalesce":
		if len(args) < 2 || name == "ifnull" && len(args) != 2 {
			max := -1
			if name == "ifnull" {
				max = 2
			}
			l.fail(f.Location, "%s", planast.TakesArgs(name, 2, max, len(args)))
		}
		out := call("COALESCE")
		for _, a := range args {
			out.Args = append(out.Args, l.value(a, sc))
		}
		return out
	case "nullif":
		nargs(2, 2)
		return call("NULLIF", l.value(args[0], sc), l.value(args[1], sc))
	case "iif":
		nargs(3, 3)
		return &planast.Case{Whens: []planast.When{{When: l.cond(args[0], sc), Then: l.value(args[1], sc)}}, Else: l.value(args[2], sc)}
	case "date", "datetime":
		if len(args) == 2 {
			if m, ok := l.stringArg(args[1]); ok && strings.EqualFold(m, "unixepoch") {
				return l.epoch(name, args[0], f.Location, sc)
			}
		}
		if len(args) == 0 {
			l.fail(f.Location, "%s", planast.TakesArgs(name, 1, -1, 0))
		}
		x := l.dateValue(args[0], sc)
		for _, m := range args[1:] {
			x = l.modifier(m, x, name, f.Location)
		}
		t := planast.CastDate
		if name == "datetime" {
			t = planast.CastTimestamp
		}
		return &planast.Cast{Expr: x, Type: t}
	case "strftime":
		return l.strftime(f, sc)
	case "date_part", "extract", "date_trunc":
		if l.sqlite() {
			// SQL that fails on SQLite means nothing there; its own
			// spelling lifts
			l.unsupportedHint(f.Location, "write CAST(strftime('%H', x) AS INTEGER) (or %Y, %m, %d, %M, %w, %j), which lifts as DATE_PART, or write the plan's "+strings.ToUpper(name)+" by hand",
				"%s on SQLite, which has none", name)
		}
		if len(args) != 2 {
			break
		}
		fn := "DATE_PART"
		if name == "date_trunc" {
			fn = "DATE_TRUNC"
		}
		// the plan's units mean what PostgreSQL's and DuckDB's of the same
		// name do: dow 0 is Sunday, week is ISO, a week truncates to Monday
		units := planast.UnitsOf(fn)
		unit, ok := l.expr(args[0], sc).(*planast.Literal)
		if !ok || unit.Type != planast.TString || !slices.Contains(units, strings.ToLower(unit.Text)) {
			what := "a unit that is not a literal"
			if ok && unit.Type == planast.TString {
				what = fmt.Sprintf("the unit %q", unit.Text)
			}
			l.unsupportedHint(f.Location, "write one of "+strings.Join(units, ", ")+" (for seconds since 1970 of a timestamp, ELAPSED_SECONDS(x, TIMESTAMP '1970-01-01 00:00:00'))",
				"%s with %s", name, what)
		}
		return call(fn, &planast.Literal{Type: planast.TString, Text: strings.ToLower(unit.Text)}, l.value(args[1], sc))
	case "timezone":
		if l.sqlite() {
			l.noZoneRules(f)
		}
		return l.atTimeZone(f, sc)
	case "now", "transaction_timestamp":
		if l.sqlite() {
			l.unsupportedHint(f.Location, "SQLite has no now(): write datetime('now') or CURRENT_TIMESTAMP, the UTC time when the query runs", "function NOW")
		}
		nargs(0, 0)
		return l.currentTimestamp()
	case "to_timestamp":
		if l.sqlite() || len(args) != 1 {
			break
		}
		return l.epoch("datetime", args[0], f.Location, sc)
	case "from_epoch_seconds":
		nargs(1, 1)
		return call("FROM_EPOCH_SECONDS", l.value(args[0], sc))
	case "at_time_zone":
		// the plan's own function, written as SQL: the wall clock of the
		// instant x in zone, on every engine
		nargs(2, 2)
		return call("AT_TIME_ZONE", l.value(args[0], sc), l.value(args[1], sc))
	case "julianday":
		l.unsupported(f.Location, "JULIANDAY (other than the difference of two values)")
	case "elapsed_seconds", "date_diff_days":
		// the plan language's own: SQL written for the plan reads back
		nargs(2, 2)
		return call(strings.ToUpper(name), l.dateValue(args[0], sc), l.dateValue(args[1], sc))
	case "date_add":
		// the plan's own DATE_ADD(unit, n, x), which a refusal of date
		// modifiers names; PostgreSQL's and DuckDB's date_add take no unit
		// first, so only that spelling is read as the plan's
		if len(args) != 3 {
			break
		}
		if u, ok := l.stringArg(args[0]); ok && isUnit(strings.ToLower(u)) {
			return call("DATE_ADD", &planast.Literal{Type: planast.TString, Text: strings.ToLower(u)}, l.numeric(l.expr(args[1], sc), f.Location), l.dateValue(args[2], sc))
		}
	case "period_label":
		nargs(2, 2)
		unit, ok := l.expr(args[0], sc).(*planast.Literal)
		if !ok || unit.Type != planast.TString || !isUnit(strings.ToLower(unit.Text)) {
			l.unsupported(f.Location, "PERIOD_LABEL with a unit other than year, quarter, month or day")
		}
		return call("PERIOD_LABEL", &planast.Literal{Type: planast.TString, Text: strings.ToLower(unit.Text)}, l.dateValue(args[1], sc))
	}
	l.unsupported(f.Location, "function %s", strings.ToUpper(name))
	return nil
}

// aggFilter lifts agg(x) FILTER (WHERE c) as agg(CASE WHEN c THEN x END)
// and COUNT(*) FILTER (WHERE c) as COUNT(CASE WHEN c THEN 1 END): the
// plan's aggregates of one argument skip NULLs, so each reads exactly the
// rows c holds for. The aggregate is lifted first, so one the plan lacks
// is refused by its own name.
func (l *lifter) aggFilter(f *pg.FuncCall, name string, sc *scope) planast.Expr {
	filter := f.AggFilter
	f.AggFilter = nil
	agg, _ := l.funcCall(f, sc).(*planast.Func)
	f.AggFilter = filter
	if spec, ok := planast.LookupFunc(name); agg == nil || !ok || spec.Kind != planast.Aggregate || len(agg.Args) > 1 {
		l.unsupportedHint(f.Location, "write the aggregate of CASE WHEN c THEN x END, which reads the rows FILTER (WHERE c) keeps",
			"FILTER on %s", strings.ToUpper(name))
	}
	c := l.cond(filter, sc)
	if len(agg.Args) == 0 {
		agg.Args = []planast.Expr{&planast.Case{Whens: []planast.When{{When: c, Then: &planast.Literal{Type: planast.TInteger, Int: 1}}}}}
		return agg
	}
	agg.Args[0] = &planast.Case{Whens: []planast.When{{When: c, Then: agg.Args[0]}}}
	return agg
}

// epoch lifts the timestamp (fn "datetime") or the date (fn "date") of
// x seconds since 1970: SQLite's datetime(x, 'unixepoch'), PostgreSQL's and
// DuckDB's to_timestamp(x). Only of whole seconds: the plan's
// FROM_EPOCH_SECONDS keeps a fraction to the millisecond, which datetime()
// drops and to_timestamp keeps to the microsecond.
func (l *lifter) epoch(fn string, x *pg.Node, pos int32, sc *scope) planast.Expr {
	e := l.value(x, sc)
	if t := l.typeOf(e); t != planast.TypeInteger {
		l.unsupportedHint(pos, "cast the seconds to integer first, or write FROM_EPOCH_SECONDS(x), the plan's own function, which keeps the fraction to the millisecond",
			"a timestamp of seconds since 1970 that are %s, not whole", t)
	}
	ts := call("FROM_EPOCH_SECONDS", e)
	if fn == "date" {
		return &planast.Cast{Expr: ts, Type: planast.CastDate}
	}
	return ts
}

// strftimeParts are strftime formats whose number DATE_PART gives but
// that lift to none: SQLite's own %V is newer than many of its builds.
var strftimeParts = map[string]string{"%V": "week"}

// sqliteDateFunc is SQLite's function that reads text as a date or
// timestamp, which lifts where its CAST cannot.
var sqliteDateFunc = map[planast.CastType]string{planast.CastDate: "date", planast.CastTimestamp: "datetime"}

func isUnit(s string) bool {
	for _, u := range planast.DateUnits {
		if u == s {
			return true
		}
	}
	return false
}

// call builds a plan function call.
func call(fn string, es ...planast.Expr) *planast.Func {
	return &planast.Func{Name: fn, Args: es}
}

// dateValue lifts a date argument of SQLite's date functions, reading
// 'now' (a string, or SQLite's double-quoted "now") as CURRENT_TIMESTAMP:
// the UTC time when the query runs, as SQLite means it.
func (l *lifter) dateValue(n *pg.Node, sc *scope) planast.Expr {
	if c := n.GetAConst(); c != nil {
		if s, ok := c.Val.(*pg.A_Const_Sval); ok && strings.EqualFold(strings.TrimSpace(s.Sval.Sval), "now") {
			return call("CURRENT_TIMESTAMP")
		}
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && strings.EqualFold(cr.Fields[0].GetString_().GetSval(), "now") && l.src.DoubleQuoted(int(cr.Location)) {
		return call("CURRENT_TIMESTAMP")
	}
	return l.value(n, sc)
}

// dayShift is a modifier of SQLite's date functions that moves by whole
// days: '-30 days', '+1 day'.
var dayShift = regexp.MustCompile(`^\s*([+-]?[0-9]{1,6})\s+days?\s*$`)

// modifier lifts one modifier of date(x, …) or datetime(x, …) applied to
// x, the value so far, as SQLite applies them, left to right: whole days
// as DATE_ADD('day', n, x), which moves a date or a time by as many days
// as SQLite does, and 'start of month' or 'start of year' as DATE_TRUNC.
// Months and years are refused: SQLite's run past a month's end (January
// 31 plus a month is March 2 or 3), where DATE_ADD stops at its last day,
// and a lift never approximates.
func (l *lifter) modifier(n *pg.Node, x planast.Expr, fn string, pos int32) planast.Expr {
	m, ok := l.stringArg(n)
	lower := strings.ToLower(strings.TrimSpace(m))
	switch {
	case ok && dayShift.MatchString(lower):
		days, _ := strconv.ParseInt(dayShift.FindStringSubmatch(lower)[1], 10, 64)
		return call("DATE_ADD", &planast.Literal{Type: planast.TString, Text: "day"}, &planast.Literal{Type: planast.TInteger, Int: days}, x)
	case ok && (lower == "start of month" || lower == "start of year"):
		return call("DATE_TRUNC", &planast.Literal{Type: planast.TString, Text: strings.TrimPrefix(lower, "start of ")}, x)
	}
	l.unsupportedHint(pos, "whole days ('-30 days') and 'start of month' or 'start of year' lift; shift by months or years with DATE_ADD('year'|'quarter'|'month'|'day', n, x) in the plan (it stops at a month's last day, where SQLite runs past it), or write the date the modifiers give as a literal",
		"%s() with the modifier %q", fn, m)
	return x
}

// strftimeUnits maps the strftime formats the plan can express to
// DATE_PART units; each yields zero-padded digits of a fixed width, the
// number DATE_PART gives (%w counts from Sunday, 0, as dow does; %j from
// 1).
var strftimeUnits = map[string]struct {
	unit  string
	width int
}{"%Y": {"year", 4}, "%m": {"month", 2}, "%d": {"day", 2}, "%H": {"hour", 2}, "%M": {"minute", 2}, "%w": {"dow", 1}, "%j": {"doy", 3}}

// strftime lifts strftime('%Y' | '%m' | '%d', x) as DATE_PART(unit, x)
// marked with its format. SQLite returns zero-padded text, so the number
// means the same where SQLite compares it with digits of that width (the
// literal becomes the number), does arithmetic on it, or casts it; where
// the text itself is used, textify casts a year back to text and refuses
// the other units. strftime(format, x, 'unixepoch'), the way SQLite users
// label Unix times, is strftime(format, datetime(x, 'unixepoch')); other
// modifiers are refused naming the plan's way to shift or read a time.
func (l *lifter) strftime(f *pg.FuncCall, sc *scope) planast.Expr {
	if len(f.Args) < 2 {
		l.fail(f.Location, "%s", planast.TakesArgs("strftime", 2, -1, len(f.Args)))
	}
	format, ok := l.stringArg(f.Args[0])
	if !ok && len(f.Args) == 2 {
		// DuckDB's strftime(x, format)
		if format, ok = l.stringArg(f.Args[1]); ok {
			return l.periodLabel(f, "strftime format", format, strftimeLabels, func() planast.Expr { return l.dateValue(f.Args[0], sc) })
		}
	}
	x := func() planast.Expr { return l.dateValue(f.Args[1], sc) }
	if len(f.Args) > 2 {
		if m, ok := l.stringArg(f.Args[2]); !ok || len(f.Args) > 3 || !strings.EqualFold(strings.TrimSpace(m), "unixepoch") {
			l.unsupportedHint(f.Location, "strftime(format, x, 'unixepoch') of whole seconds since 1970 lifts; for other modifiers shift a date with DATE_ADD('year'|'quarter'|'month'|'day', n, x) in the plan, read seconds since 1970 as FROM_EPOCH_SECONDS(x), or write the date the modifiers give as a literal",
				"strftime with modifiers")
		}
		x = func() planast.Expr { return l.epoch("datetime", f.Args[1], f.Location, sc) }
	}
	if format == "%s" {
		hint := "for the seconds since 1970 of a time write ELAPSED_SECONDS(x, '1970-01-01 00:00:00')"
		if d, ok := l.stringArg(f.Args[1]); ok && len(f.Args) == 2 {
			// a column of Unix times compared with a date's seconds: the
			// same test with the column read as a time, which the plan
			// compares with the date itself
			hint = fmt.Sprintf("compare the seconds column read as a timestamp with the date instead, e.g. FROM_EPOCH_SECONDS(x) >= '%s' (x / 1000 for milliseconds), rather than x >= strftime('%%s', '%s')", d, d)
		}
		l.unsupportedHint(f.Location, hint, "strftime format %q", format)
	}
	if _, ok := strftimeLabels[format]; ok && format != "%Y" {
		return l.periodLabel(f, "strftime format", format, strftimeLabels, x)
	}
	u, ok := strftimeUnits[format]
	if !ok {
		if unit, ok := strftimeParts[format]; ok {
			// the number the plan gives where SQLite gives text
			l.unsupportedHint(f.Location, fmt.Sprintf("write DATE_PART('%s', x), the plan's number for it (SQLite's %s is text)", unit, format),
				"strftime format %q", format)
		}
		l.unsupported(f.Location, "strftime format %q", format)
	}
	e := x()
	if t := l.typeOf(e); t != planast.TypeUnknown && t != planast.TypeText && !t.IsTemporal() {
		l.unsupported(f.Location, "strftime of a %s", t)
	}
	fn := &planast.Func{Name: "DATE_PART", Args: []planast.Expr{&planast.Literal{Type: planast.TString, Text: u.unit}, e}}
	if l.strf == nil {
		l.strf = map[*planast.Func]string{}
	}
	l.strf[fn] = format
	return fn
}

// strftimeLabels and toCharLabels map the formats that name a period onto
// PERIOD_LABEL units: the text is the same.
var (
	strftimeLabels = map[string]string{"%Y": "year", "%Y-%m": "month", "%Y-%m-%d": "day"}
	toCharLabels   = map[string]string{"YYYY": "year", "YYYY-MM": "month", "YYYY-MM-DD": "day", `YYYY-"Q"Q`: "quarter"}
)

// stringArg returns the text of a string constant (or SQLite's
// double-quoted string) argument.
func (l *lifter) stringArg(n *pg.Node) (string, bool) {
	if c := n.GetAConst(); c != nil {
		if s, ok := c.Val.(*pg.A_Const_Sval); ok {
			return s.Sval.Sval, true
		}
		return "", false
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && l.sqlite() && l.src.DoubleQuoted(int(cr.Location)) {
		return cr.Fields[0].GetString_().GetSval(), true
	}
	return "", false
}

// periodLabel lifts a formatting call whose format names a period as
// PERIOD_LABEL(unit, x), refusing other formats by name.
func (l *lifter) periodLabel(f *pg.FuncCall, what, format string, units map[string]string, x func() planast.Expr) planast.Expr {
	u, ok := units[format]
	if !ok {
		l.unsupported(f.Location, "%s %q", what, format)
	}
	e := x()
	if t := l.typeOf(e); t != planast.TypeUnknown && t != planast.TypeText && !t.IsTemporal() {
		l.unsupported(f.Location, "%s of a %s", what, t)
	}
	return call("PERIOD_LABEL", &planast.Literal{Type: planast.TString, Text: u}, e)
}

// toChar lifts PostgreSQL's to_char(x, 'YYYY' | 'YYYY-MM' | 'YYYY-MM-DD')
// of a date or timestamp as PERIOD_LABEL.
func (l *lifter) toChar(f *pg.FuncCall, sc *scope) planast.Expr {
	if len(f.Args) != 2 {
		l.fail(f.Location, "%s", planast.TakesArgs("to_char", 2, 2, len(f.Args)))
	}
	format, ok := l.stringArg(f.Args[1])
	if !ok {
		l.unsupported(f.Location, "to_char with a computed format")
	}
	return l.periodLabel(f, "to_char format", format, toCharLabels, func() planast.Expr { return l.dateValue(f.Args[0], sc) })
}

// strfOf returns the strftime format e was lifted from ("" when none): a
// marked DATE_PART, a column of a derived table or CTE that outputs one, or
// a scalar subquery that does.
func (l *lifter) strfOf(e planast.Expr) string {
	switch x := e.(type) {
	case *planast.Func:
		return l.strf[x]
	case *planast.Column:
		return l.columnInfo(x).strf
	case *planast.Subquery:
		if cols := l.outCols[x.Query]; len(cols) == 1 {
			return cols[0].strf
		}
	}
	return ""
}

// textify returns SQLite's text for a value lifted from strftime: a year
// is CAST(DATE_PART(year, x) AS text) (four digits for years 1000-9999);
// a month or day as text is refused (the plan has no zero-padding).
func (l *lifter) textify(e planast.Expr, pos int32) planast.Expr {
	switch l.strfOf(e) {
	case "":
		return e
	case "%Y":
		// not PERIOD_LABEL: the same DATE_PART may be grouped by
		return &planast.Cast{Expr: e, Type: planast.CastText}
	}
	f := l.strfOf(e)
	l.unsupportedHint(pos, fmt.Sprintf("cast it: CAST(strftime('%s', x) AS INTEGER) lifts as DATE_PART('%s', x), the number the text writes", f, strftimeUnits[f].unit),
		"strftime('%s') used as text", f)
	return nil
}

// strfLiteral rewrites the other side *p of a comparison with strftime
// text of format: a string of exactly that many digits becomes the number.
func (l *lifter) strfLiteral(p *planast.Expr, format string, pos int32) {
	lit, ok := (*p).(*planast.Literal)
	w := strftimeUnits[format].width
	if ok && lit.Type == planast.TString && len(lit.Text) == w && intRe.MatchString(lit.Text) && !strings.HasPrefix(lit.Text, "-") {
		k, _ := strconv.ParseInt(lit.Text, 10, 64)
		*p = &planast.Literal{Type: planast.TInteger, Int: k}
		return
	}
	l.unsupported(pos, "a comparison of strftime('%s') text with something other than a %d-digit string", format, w)
}

// julianDiff lifts julianday(a) - julianday(b) as DATE_DIFF_DAYS(a, b)
// when both are dates (a date column, a date literal or a cast to date):
// then the difference is a whole number of days; otherwise as the elapsed
// time in days, ELAPSED_SECONDS(a, b) / 86400.0 (a ride from 09:00 to
// 10:30 is 0.0625). It returns nil when the operands are not two
// julianday calls.
func (l *lifter) julianDiff(a *pg.A_Expr, sc *scope) planast.Expr {
	lf, rf := a.Lexpr.GetFuncCall(), a.Rexpr.GetFuncCall()
	if lf == nil || rf == nil || !strings.EqualFold(opName(lf.Funcname), "julianday") || !strings.EqualFold(opName(rf.Funcname), "julianday") {
		return nil
	}
	if len(lf.Args) != 1 || len(rf.Args) != 1 {
		l.unsupported(a.Location, "JULIANDAY with modifiers")
	}
	x, y := l.dateValue(lf.Args[0], sc), l.dateValue(rf.Args[0], sc)
	for _, e := range []planast.Expr{x, y} {
		if lit, ok := e.(*planast.Literal); ok && lit.Type == planast.TString && dateRe.MatchString(lit.Text) {
			continue
		}
		if l.typeOf(e) != planast.TypeDate {
			// times of day: the difference is a fraction of days, the
			// elapsed time in days
			return &planast.Binary{Op: planast.OpDiv, Left: &planast.Func{Name: "ELAPSED_SECONDS", Args: []planast.Expr{x, y}},
				Right: &planast.Literal{Type: planast.TDecimal, Text: "86400.0"}}
		}
	}
	return &planast.Func{Name: "DATE_DIFF_DAYS", Args: []planast.Expr{x, y}}
}

// window lifts name(args) OVER (PARTITION BY ... ORDER BY ...) with the
// default frame.
func (l *lifter) window(f *pg.FuncCall, name string, sc *scope) planast.Expr {
	over := f.Over
	if over.Name != "" || over.Refname != "" {
		l.unsupported(f.Location, "a named window")
	}
	if over.FrameOptions&frameNonDefault != 0 {
		l.unsupported(f.Location, "a window frame")
	}
	if f.AggDistinct || f.AggFilter != nil || len(f.AggOrder) > 0 {
		l.unsupported(f.Location, "DISTINCT, FILTER or ORDER BY in a window function's arguments")
	}
	spec, ok := planast.LookupFunc(name)
	if !ok || spec.Kind == planast.Scalar {
		l.unsupported(f.Location, "window function %s", strings.ToUpper(name))
	}
	w := &planast.Window{Name: spec.Name}
	if !f.AggStar {
		for _, a := range f.Args {
			w.Args = append(w.Args, l.value(a, sc))
		}
	}
	for _, p := range over.PartitionClause {
		w.PartitionBy = append(w.PartitionBy, l.value(p, sc))
	}
	for _, n := range over.OrderClause {
		sb := n.GetSortBy()
		o := planast.OrderItem{Expr: l.expr(sb.Node, sc)}
		desc := sb.SortbyDir == pg.SortByDir_SORTBY_DESC
		o.Direction = planast.Asc
		if desc {
			o.Direction = planast.Desc
		}
		switch sb.SortbyNulls {
		case pg.SortByNulls_SORTBY_NULLS_FIRST:
			o.Nulls = planast.NullsFirst
		case pg.SortByNulls_SORTBY_NULLS_LAST:
			o.Nulls = planast.NullsLast
		default:
			if l.nullsFirst(desc) {
				o.Nulls = planast.NullsFirst
			}
		}
		w.OrderBy = append(w.OrderBy, o)
	}
	return w
}

// frameNonDefault is PostgreSQL's FRAMEOPTION_NONDEFAULT: the window has
// an explicit frame.
const frameNonDefault = 0x1

// cast lifts CAST(x AS type). The target type is read by SQLite's affinity
// rules for sqlite (a name containing INT is integer; CHAR, CLOB or TEXT
// text; REAL, FLOA or DOUB float; NUMERIC or DECIMAL decimal) and by its
// PostgreSQL meaning for postgres. SQLite's CAST AS DATE is a NUMERIC
// cast (it yields the year), which the plan cannot express.
func (l *lifter) cast(tc *pg.TypeCast, sc *scope) planast.Expr {
	var names []string
	for _, n := range tc.TypeName.Names {
		names = append(names, strings.ToLower(n.GetString_().GetSval()))
	}
	tn := names[len(names)-1]
	if len(tc.TypeName.ArrayBounds) > 0 {
		l.unsupported(tc.Location, "a cast to an array")
	}
	var t planast.CastType
	switch tn {
	case "int2", "int4", "int8", "int", "integer", "smallint", "bigint", "tinyint", "mediumint":
		t = planast.CastInteger
	case "float4", "float8", "real", "double", "float":
		t = planast.CastFloat
	case "numeric", "decimal", "number":
		t = planast.CastDecimal
		if !l.sqlite() && len(tc.TypeName.Typmods) > 0 {
			l.unsupported(tc.Location, "a cast to NUMERIC with a precision")
		}
	case "text", "varchar", "bpchar", "char", "character", "nvarchar", "nchar", "clob", "string":
		t = planast.CastText
		if !l.sqlite() && len(tc.TypeName.Typmods) > 0 {
			l.unsupported(tc.Location, "a cast to %s with a length (PostgreSQL cuts or pads)", strings.ToUpper(tn))
		}
	case "date":
		t = planast.CastDate
	case "timestamp", "datetime":
		t = planast.CastTimestamp
	case "timestamptz":
		if !l.sqlite() {
			return l.zonedLiteral(tc)
		}
		l.unsupported(tc.Location, "a cast to %s", tn)
	case "bool", "boolean":
		t = planast.CastBoolean
	default:
		l.unsupported(tc.Location, "a cast to %s", tn)
	}
	if l.sqlite() && (t == planast.CastDate || t == planast.CastTimestamp || t == planast.CastBoolean) {
		if lit := tc.Arg.GetAConst(); lit != nil && tc.TypeName.Location < lit.Location {
			// DATE '2024-02-01': PostgreSQL's typed literal, which
			// sqlite3 refuses as a syntax error
			l.unsupportedHint(tc.Location, "SQLite compares ISO dates as text: write the text literal, or "+sqliteDateFunc[t]+"('…')",
				"%s '…' literals, which SQLite does not have", strings.ToUpper(tn))
		}
		if f, ok := sqliteDateFunc[t]; ok {
			l.unsupportedHint(tc.Location, "write "+f+"(x) for the "+map[planast.CastType]string{planast.CastDate: "date", planast.CastTimestamp: "date and time"}[t]+" SQLite reads in x",
				"CAST AS %s (SQLite casts it as NUMERIC)", strings.ToUpper(tn))
		}
		l.unsupported(tc.Location, "CAST AS %s (SQLite casts it as NUMERIC)", strings.ToUpper(tn))
	}
	var e planast.Expr
	if t == planast.CastText {
		e = l.value(tc.Arg, sc)
	} else {
		e = l.expr(tc.Arg, sc)
	}
	if !l.sqlite() && t == planast.CastInteger && (l.typeOf(e) == planast.TypeFloat || l.typeOf(e) == planast.TypeDecimal) {
		l.unsupported(tc.Location, "a cast of a fraction to integer (PostgreSQL rounds, the plan truncates)")
	}
	return &planast.Cast{Expr: e, Type: t}
}
