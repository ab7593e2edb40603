package validate

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"

	. "github.com/nl2sql/nl2sql/planast"
)

// Comparisons between dates, timestamps and text. SQLite stores both as ISO
// text and compares them as text, so DATE '2021-01-01' and TIMESTAMP
// '2021-01-01 00:00:00' differ there while PostgreSQL and DuckDB find them
// equal; and PostgreSQL refuses to compare a date with a text column. The
// validator therefore makes such comparisons explicit in the validated plan,
// where it can, so that the SQL means the same everywhere:
//
//   - a date compared with a timestamp (=, !=, <, <=, >, >=, BETWEEN, an IN
//     list) covers its whole day: ts <= d and ts BETWEEN a AND d include all
//     of day d, ts = d is the whole day, ts > d starts the next day, ts < d
//     and ts >= d start at midnight (see dayCompare); a string literal that
//     is a date counts as a date here;
//   - a string literal compared with a date or timestamp becomes a date or
//     timestamp literal when it is one, and is refused when it is not;
//   - anything else (a text column against a date, a date meeting a
//     timestamp in a CASE operand, an IN subquery, a join key or a set
//     operation) is refused with a hint.

// comparable reports whether values of types a and b compare with one
// meaning on every engine as they are: equal types, two numbers, or an
// unknown type (NULL, or an error already reported).
func comparable(a, b Type) bool {
	return a == TypeUnknown || b == TypeUnknown || a == b || (a.IsNumeric() && b.IsNumeric())
}

// coerce checks the comparison of *a (type at) with *b (type bt), rewriting
// either side as described above; a or b is nil where that side cannot be
// rewritten (a join key, a subquery's column). It returns the types after
// rewriting, and on failure a hint for the message.
func (v *validator) coerce(a *Expr, at Type, b *Expr, bt Type) (Type, Type, string, bool) {
	if comparable(at, bt) {
		return at, bt, "", true
	}
	switch {
	case dayPair(at, bt):
		return at, bt, "; a date meets a timestamp only in a comparison, BETWEEN or an IN list (where the date covers its whole day); cast one side: CAST(x AS timestamp)", false
	case at.IsTemporal() && bt == TypeText:
		hint, ok := literalAs(b, at)
		if ok {
			return at, at, "", true
		}
		return at, bt, hint, false
	case bt.IsTemporal() && at == TypeText:
		hint, ok := literalAs(a, bt)
		if ok {
			return bt, bt, "", true
		}
		return at, bt, hint, false
	}
	return at, bt, "", false
}

// temporalOf is the type a comparison of a (type at) with b (type bt)
// compares when it compares dates or timestamps, after coerce: both the
// same temporal type, or one of them and an untyped NULL or column of
// unknown type. Validate marks such comparisons (Binary.Temporal and
// others) so that SQLite, which stores them as ISO text of several shapes
// ('2024-03-01', '2024-03-01 00:00:00', '2024-03-01T00:00:00.000'), can
// compare both sides in one shape; "" otherwise.
func temporalOf(at, bt Type) Type {
	switch {
	case at.IsTemporal() && (bt == at || bt == TypeUnknown):
		return at
	case bt.IsTemporal() && at == TypeUnknown:
		return bt
	}
	return ""
}

// toTimestamp rewrites the date expression *p into a timestamp.
func toTimestamp(p *Expr) {
	if lit, ok := (*p).(*Literal); ok && lit.Type == TDate {
		lit.Type, lit.Text = TTimestamp, lit.Text+" 00:00:00"
		return
	}
	*p = &Cast{Expr: *p, Type: CastTimestamp}
}

// literalAs turns the string literal *p into a literal of temporal type t.
func literalAs(p *Expr, t Type) (string, bool) {
	var lit *Literal
	if p != nil {
		lit, _ = (*p).(*Literal)
	}
	if lit == nil || lit.Type != TString {
		// in the plan's own words: a host writes plans, and CAST(x AS date)
		// sent it to look for a SQL form the plan language has no place for
		return `; cast the text first: {"kind": "cast", "expr": <the text>, "type": "` + string(t) + `"} (a column of dates kept as text, '2024-03-01', then compares as dates)`, false
	}
	s := lit.Text
	switch {
	case IsDateLiteral(s):
		if t == TypeDate {
			lit.Type = TDate
		} else {
			lit.Type, lit.Text = TTimestamp, s+" 00:00:00"
		}
		return "", true
	case t == TypeTimestamp:
		s = strings.Replace(s, "T", " ", 1)
		if IsTimestampLiteral(s) {
			lit.Type, lit.Text = TTimestamp, s
			return "", true
		}
		if shapedAsDate.MatchString(s) {
			return "; " + quoteShort(lit.Text) + " is written as a timestamp but names no real day or time (a 30 February, a 13th month, an hour past 23)", false
		}
		return "; " + quoteShort(lit.Text) + " is not a timestamp: write YYYY-MM-DD HH:MM:SS", false
	}
	if shapedAsDate.MatchString(s) {
		// "write YYYY-MM-DD" to a literal written so sends the user in a circle
		return "; " + quoteShort(lit.Text) + " is written YYYY-MM-DD but names no real day (a 30 February, a 13th month)", false
	}
	return "; " + quoteShort(lit.Text) + " is not a date: write YYYY-MM-DD", false
}

// shapedAsDate matches text of a date's or timestamp's shape, whatever its
// numbers.
var shapedAsDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?$`)

func quoteShort(s string) string { return `"` + Truncate(s, 40) + `"` }

// nullOperand reports an operand whose only value is an untyped NULL: the
// engines cannot all pick a type for it (PostgreSQL refuses SUM(NULL),
// NULL + NULL and -NULL, and reads an all-NULL CASE as text).
func (v *validator) nullOperand(path, what string) {
	v.add(CodeType, path, "%s gets only NULL here, which has no type; cast it, e.g. CAST(NULL AS integer), or leave it out", what)
}

// untypedOperand reports an operand of what whose type is unknown: a
// column of unknown type (SQLite views declare no types for computed
// columns) gets its own message naming it; anything else is an untyped
// NULL (nullOperand). Such a column is refused rather than guessed: SUM of
// text, integers or decimals means different things on each engine.
func (v *validator) untypedOperand(path, what string, operands ...Expr) {
	for _, e := range operands {
		if c, ok := e.(*Column); ok {
			hint := fmt.Sprintf("cast it, e.g. CAST(%s AS decimal)", c.Column)
			v.addHint(CodeType, path, hint, "%s gets column %q, which has no declared type (a computed view column); %s", what, c.Column, hint)
			return
		}
	}
	v.nullOperand(path, what)
}

// hasIssueUnder reports whether an issue was already reported at or under path.
func (v *validator) hasIssueUnder(path string) bool {
	if v.silent > 0 {
		return true // a missing table was reported; its consequences are not
	}
	for _, is := range v.issues {
		if is.Path == path || strings.HasPrefix(is.Path, path+".") || strings.HasPrefix(is.Path, path+"[") {
			return true
		}
	}
	return false
}

// caseUntyped reports whether every result of c is an untyped NULL.
func caseUntyped(c *Case, v *validator) bool {
	untyped := func(e Expr) bool {
		lit, ok := e.(*Literal)
		return ok && lit.Type == TNull
	}
	for _, w := range c.Whens {
		if !untyped(w.Then) {
			return false
		}
	}
	return c.Else == nil || untyped(c.Else)
}

func orHint(hint, otherwise string) string {
	if hint != "" {
		return hint
	}
	return otherwise
}

// dayPair reports whether a and b are a date and a timestamp, in either
// order: a comparison of them follows the whole-day rule.
func dayPair(a, b Type) bool {
	return a == TypeDate && b == TypeTimestamp || a == TypeTimestamp && b == TypeDate
}

// dateText turns the string literal *p, compared with a timestamp, into a
// date literal when it is a date (YYYY-MM-DD), so that it covers its day.
func dateText(p *Expr, t, other Type) Type {
	if t != TypeText || other != TypeTimestamp {
		return t
	}
	if lit, ok := (*p).(*Literal); ok && lit.Type == TString && IsDateLiteral(lit.Text) {
		lit.Type = TDate
		return TypeDate
	}
	return t
}

// dayRule records the operand types of a comparison, BETWEEN or IN list
// that mixes dates and timestamps; Validate rewrites it (applyDayRules).
type dayRule struct {
	x     Type   // the compared value (Binary: the left operand)
	items []Type // Binary: the right operand; Between: low, high; In: the list
}

// comparison builds a op b where a has type at and b type bt, applying the
// whole-day rule when they are a date and a timestamp.
func comparison(op string, a Expr, at Type, b Expr, bt Type) Expr {
	if !dayPair(at, bt) {
		return &Binary{Op: op, Left: a, Right: b, Temporal: temporalOf(at, bt)}
	}
	if at == TypeDate { // d op ts is ts flipped(op) d
		a, b = b, a
		switch op {
		case OpLt:
			op = OpGt
		case OpLe:
			op = OpGe
		case OpGt:
			op = OpLt
		case OpGe:
			op = OpLe
		}
	}
	return dayCompare(op, a, b)
}

// dayCompare compares the timestamp ts with the day of the date d: d's
// midnight and the next day's midnight bound it.
func dayCompare(op string, ts, d Expr) Expr {
	start, next := midnight(d), nextMidnight(d)
	cmp := func(op string, a, b Expr) Expr { return &Binary{Op: op, Left: a, Right: b, Temporal: TypeTimestamp} }
	switch op {
	case OpLt:
		return cmp(OpLt, ts, start)
	case OpGe:
		return cmp(OpGe, ts, start)
	case OpLe:
		return cmp(OpLt, ts, next)
	case OpGt:
		return cmp(OpGe, ts, next)
	case OpEq:
		return &Binary{Op: OpAnd, Left: cmp(OpGe, ts, start), Right: cmp(OpLt, cloneExpr(ts), next)}
	}
	return &Binary{Op: OpOr, Left: cmp(OpLt, ts, start), Right: cmp(OpGe, cloneExpr(ts), next)}
}

func midnight(d Expr) Expr {
	d = cloneExpr(d)
	toTimestamp(&d)
	return d
}

func nextMidnight(d Expr) Expr {
	if lit, ok := d.(*Literal); ok && lit.Type == TDate {
		if t, err := time.Parse("2006-01-02", lit.Text); err == nil {
			return &Literal{Type: TTimestamp, Text: t.AddDate(0, 0, 1).Format("2006-01-02") + " 00:00:00"}
		}
	}
	return &Cast{Expr: &Func{Name: "DATE_ADD", Args: []Expr{&Literal{Type: TString, Text: "day"}, &Literal{Type: TInteger, Int: 1}, cloneExpr(d)}}, Type: CastTimestamp}
}

// cloneExpr copies e through its canonical JSON, so that a rewrite that
// uses an operand twice holds two distinct nodes, with the validator's
// annotations, which the JSON leaves out (copyAnnotations): a copy of a
// text cast without them rendered as a plain CAST, which fails on
// PostgreSQL and DuckDB where the original reads bad text as NULL.
func cloneExpr(e Expr) Expr {
	b, err := JSON(&Query{Select: []SelectItem{{Expr: e, Alias: "x"}}, From: []From{}})
	if err != nil {
		panic("planast: cloneExpr: " + err.Error()) // every node encodes
	}
	q, err := Decode(b, Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		panic("planast: cloneExpr: " + err.Error()) // the canonical form decodes
	}
	c := q.Select[0].Expr
	copyAnnotations(c, e)
	return c
}

// copyAnnotations copies, node by node in walk order, the fields of src's
// nodes that a plan's JSON leaves out (tagged json:"-", set by Validate)
// to those of dst, src's copy through its JSON.
func copyAnnotations(dst, src Expr) {
	var to, from []Node
	Inspect(dst, func(n Node) bool { to = append(to, n); return true })
	Inspect(src, func(n Node) bool { from = append(from, n); return true })
	if len(to) != len(from) {
		return
	}
	for i := range to {
		d, s := reflect.ValueOf(to[i]), reflect.ValueOf(from[i])
		if d.Type() != s.Type() || d.Kind() != reflect.Pointer || d.Elem().Kind() != reflect.Struct {
			continue
		}
		d, s = d.Elem(), s.Elem()
		for f := range d.NumField() {
			if d.Type().Field(f).Tag.Get("json") == "-" {
				d.Field(f).Set(s.Field(f))
			}
		}
	}
}

// applyDayRules rewrites the comparisons recorded in rules, innermost
// first, into comparisons of timestamps.
func applyDayRules(q *Query, rules map[Expr]dayRule) {
	if len(rules) == 0 {
		return
	}
	MapQuery(q, func(e Expr) Expr {
		r, ok := rules[e]
		if !ok {
			return e
		}
		switch n := e.(type) {
		case *Binary:
			return comparison(n.Op, n.Left, r.x, n.Right, r.items[0])
		case *Between:
			var out Expr = &Binary{Op: OpAnd, Left: comparison(OpGe, n.Expr, r.x, n.Low, r.items[0]), Right: comparison(OpLe, cloneExpr(n.Expr), r.x, n.High, r.items[1])}
			if n.Negated {
				out = &Unary{Op: "not", Expr: out}
			}
			return out
		case *In:
			var out Expr
			for i, it := range n.List {
				x := n.Expr
				if i > 0 {
					x = cloneExpr(n.Expr)
				}
				c := comparison(OpEq, x, r.x, it, r.items[i])
				if out == nil {
					out = c
				} else {
					out = &Binary{Op: OpOr, Left: out, Right: c}
				}
			}
			if n.Negated {
				out = &Unary{Op: "not", Expr: out}
			}
			return out
		}
		return e
	})
}

// floatSide casts *p, of type t, to float when the other side of its
// comparison is a float and t is an integer or a decimal. PostgreSQL and
// DuckDB compare those as doubles, SQLite exactly (9007199254740993 =
// 9007199254740993.0 is false there, true on the others); with the cast
// written into the plan every engine compares doubles.
func floatSide(p *Expr, t, other Type) {
	if other == TypeFloat && (t == TypeInteger || t == TypeDecimal) {
		*p = &Cast{Expr: *p, Type: CastFloat}
	}
}

// floatAll applies floatSide to every operand of an IN list or a BETWEEN
// (types[i] is the type of *ps[i]): when any of them is a float, every
// integer or decimal among them is cast to float, so that
// 9007199254740993 IN (9007199254740992.0) compares doubles on every
// engine as the plain comparison does.
func floatAll(ps []*Expr, types []Type) {
	for _, t := range types {
		if t == TypeFloat {
			for i, p := range ps {
				floatSide(p, types[i], TypeFloat)
			}
			return
		}
	}
}

// floatSubquery makes x IN (SELECT y ...) with a float on one side a
// comparison of doubles on every engine, as floatAll does for an IN list:
// x, an integer or decimal, is cast to float; y, when x is the float, is
// cast in the subquery's select item. A subquery that groups, is distinct
// or has set operations keeps y as it is (casting there would change what
// it groups).
func floatSubquery(in *In, x, y Type) {
	floatSide(&in.Expr, x, y)
	q := in.Subquery
	if x == TypeFloat && len(q.Select) == 1 && len(q.SetOps) == 0 && len(q.GroupBy) == 0 && !q.Distinct {
		floatSide(&q.Select[0].Expr, y, x)
	}
}

// castJoinHint is the join condition that pairs a text key with a number
// or date key (SQLite declares such keys, and its own = converts the text
// side): the text side cast to the other's type, by the cast rule (text
// holding no such value joins nothing). "" for other pairs.
func castJoinHint(la string, l ColumnInfo, ra string, r ColumnInfo) string {
	lx, rx := Expr(&Column{Table: la, Column: l.Name}), Expr(&Column{Table: ra, Column: r.Name})
	switch {
	case l.Type == TypeText && (r.Type.IsNumeric() || r.Type.IsTemporal()):
		lx = &Cast{Expr: lx, Type: CastType(r.Type)}
	case r.Type == TypeText && (l.Type.IsNumeric() || l.Type.IsTemporal()):
		rx = &Cast{Expr: rx, Type: CastType(l.Type)}
	default:
		return ""
	}
	b, err := JSON(&Binary{Op: OpEq, Left: lx, Right: rx})
	if err != nil {
		return ""
	}
	return `drop this pair from "on" and join with "condition": ` + string(b) + ` (a text that holds no such value joins no row)`
}

// textNumberHint is the cast that compares a text expression with a
// number (a year or an age stored as text), as JSON to paste: the text
// side cast to the number's type by the cast rule. "" for other pairs.
//
// A date written as text ('2024-06-01') holds no number, and its cast is
// refused next: compared with a number, the number is most often a Unix
// time, so the hint is FROM_EPOCH_SECONDS of it compared with the date,
// op and sides kept.
func textNumberHint(op string, a Expr, at Type, b Expr, bt Type) string {
	x, t := a, bt
	switch {
	case at == TypeText && bt.IsNumeric():
	case bt == TypeText && at.IsNumeric():
		x, t = b, at
	default:
		return ""
	}
	if lit, ok := x.(*Literal); ok && lit.Type == TString && TextHolds(strings.TrimSpace(lit.Text), CastTimestamp) {
		when := &Literal{Type: TDate, Text: strings.TrimSpace(lit.Text)}
		if !TextHolds(when.Text, CastDate) || len(when.Text) > 10 {
			when.Type = TTimestamp
		}
		cmp := &Binary{Op: op, Left: when, Right: &Func{Name: "FROM_EPOCH_SECONDS", Args: []Expr{b}}}
		if x == b {
			cmp = &Binary{Op: op, Left: &Func{Name: "FROM_EPOCH_SECONDS", Args: []Expr{a}}, Right: when}
		}
		if j, err := JSON(cmp); err == nil {
			return "if the number is seconds since 1970 (Unix time), compare it read as a timestamp with the date: " + string(j) + " (of milliseconds: x / 1000); a date written as text holds no number"
		}
	}
	j, err := JSON(&Cast{Expr: x, Type: CastType(t)})
	if err != nil {
		return ""
	}
	return "cast the text side to compare numbers: " + string(j) + " (a text that holds no number reads as NULL and matches nothing)"
}
