package lift

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/planast"
)

// columnInfo returns what the lifter knows of a qualified column (the zero
// column for an output-alias reference or an unknown alias).
func (l *lifter) columnInfo(c *planast.Column) column {
	if c.Table == "" {
		return column{typ: planast.TypeUnknown}
	}
	if src := l.byAlias[c.Table]; src != nil {
		if col, ok := src.column(c.Column); ok {
			return col
		}
	}
	return column{typ: planast.TypeUnknown}
}

// typeOf infers an expression's portable type the way the validator does.
func (l *lifter) typeOf(e planast.Expr) planast.Type {
	switch x := e.(type) {
	case *planast.Column:
		return l.columnInfo(x).typ
	case *planast.Literal:
		switch x.Type {
		case planast.TString:
			return planast.TypeText
		case planast.TInteger:
			return planast.TypeInteger
		case planast.TDecimal:
			return planast.TypeDecimal
		case planast.TBoolean:
			return planast.TypeBoolean
		case planast.TDate:
			return planast.TypeDate
		case planast.TTimestamp:
			return planast.TypeTimestamp
		}
	case *planast.Binary:
		switch x.Op {
		case planast.OpAnd, planast.OpOr, planast.OpEq, planast.OpNe, planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
			return planast.TypeBoolean
		case planast.OpDiv:
			return planast.TypeFloat
		case planast.OpIDiv:
			return planast.TypeInteger
		}
		lt, rt := l.typeOf(x.Left), l.typeOf(x.Right)
		switch {
		case lt == planast.TypeInteger && rt == planast.TypeInteger:
			return planast.TypeInteger
		case lt == planast.TypeFloat || rt == planast.TypeFloat:
			return planast.TypeFloat
		case lt == planast.TypeUnknown && rt == planast.TypeUnknown:
			return planast.TypeUnknown
		}
		return planast.TypeDecimal
	case *planast.Unary:
		if x.Op == "not" {
			return planast.TypeBoolean
		}
		return l.typeOf(x.Expr)
	case *planast.In, *planast.Exists, *planast.Between, *planast.Like, *planast.IsNull:
		return planast.TypeBoolean
	case *planast.Subquery:
		if cols := l.outCols[x.Query]; len(cols) > 0 {
			return cols[0].typ
		}
	case *planast.Case:
		t := planast.TypeUnknown
		for _, w := range x.Whens {
			t = unify(t, l.typeOf(w.Then))
		}
		if x.Else != nil {
			t = unify(t, l.typeOf(x.Else))
		}
		return t
	case *planast.Cast:
		return map[planast.CastType]planast.Type{
			planast.CastInteger: planast.TypeInteger, planast.CastDecimal: planast.TypeDecimal,
			planast.CastFloat: planast.TypeFloat, planast.CastText: planast.TypeText,
			planast.CastBoolean: planast.TypeBoolean, planast.CastDate: planast.TypeDate,
			planast.CastTimestamp: planast.TypeTimestamp,
		}[x.Type]
	case *planast.Func:
		return l.funcType(x.Name, x.Args)
	case *planast.Window:
		switch x.Name {
		case "ROW_NUMBER", "RANK", "DENSE_RANK", "COUNT":
			return planast.TypeInteger
		}
		return l.funcType(x.Name, x.Args)
	}
	return planast.TypeUnknown
}

func (l *lifter) funcType(name string, args []planast.Expr) planast.Type {
	arg := func(i int) planast.Type {
		if i < len(args) {
			return l.typeOf(args[i])
		}
		return planast.TypeUnknown
	}
	switch name {
	case "COUNT", "LENGTH", "DATE_PART", "DATE_DIFF_DAYS":
		return planast.TypeInteger
	case "SUM":
		if t := arg(0); t == planast.TypeInteger || t == planast.TypeDecimal {
			return t
		}
		return planast.TypeFloat
	case "AVG":
		return planast.TypeFloat
	case "MIN", "MAX", "ABS", "LAG", "LEAD":
		return arg(0)
	case "ROUND":
		if arg(0) == planast.TypeInteger {
			return planast.TypeInteger
		}
		return planast.TypeDecimal
	case "COALESCE", "NULLIF":
		t := planast.TypeUnknown
		for i := range args {
			t = unify(t, arg(i))
		}
		return t
	case "UPPER", "LOWER", "TRIM", "SUBSTR", "CONCAT", "REPLACE", "LEFT", "RIGHT", "PERIOD_LABEL":
		return planast.TypeText
	case "DATE_ADD":
		if arg(2) == planast.TypeTimestamp {
			return planast.TypeTimestamp // the time of day is kept
		}
		return planast.TypeDate
	case "DATE_TRUNC", "CURRENT_DATE":
		return planast.TypeDate
	case "AT_TIME_ZONE", "CURRENT_TIMESTAMP":
		return planast.TypeTimestamp
	}
	return planast.TypeUnknown
}

func unify(a, b planast.Type) planast.Type {
	switch {
	case a == planast.TypeUnknown:
		return b
	case b == planast.TypeUnknown || a == b:
		return a
	case a.IsNumeric() && b.IsNumeric():
		if a == planast.TypeFloat || b == planast.TypeFloat {
			return planast.TypeFloat
		}
		return planast.TypeDecimal
	}
	return a
}

// comparableTypes mirrors the validator: equal types, two numbers, or an
// unknown side compare as they are.
func comparableTypes(a, b planast.Type) bool {
	return a == planast.TypeUnknown || b == planast.TypeUnknown || a == b || a.IsNumeric() && b.IsNumeric()
}

// compare lifts left op right after coercePair.
func (l *lifter) compare(op string, left, right planast.Expr, pos int32) planast.Expr {
	l.coercePair(&left, &right, pos)
	if op == "<>" {
		op = planast.OpNe
	}
	return &planast.Binary{Op: op, Left: left, Right: right}
}

// coercePair makes a comparison of *a with *b mean what it means to
// SQLite, where a column's affinity converts the literal compared with it:
//
//   - strftime text against digits of its width: the digits become the
//     number (both sides strftime of one format: both numbers);
//   - a number column against a numeric string: the string becomes the
//     number (PostgreSQL reads an untyped literal so too); against other
//     text: refused;
//   - a text column against a number: the number becomes its text;
//   - a date column against text that is not a date (a timestamp column
//     against text that is not a full timestamp): the column is compared
//     as text, which is what SQLite stores; against a number, or text
//     that reads as one, refused (the column's NUMERIC affinity makes
//     SQLite compare the date text with a number);
//   - a boolean column against 0 or 1: FALSE or TRUE.
//
// Anything else is left to the validator.
func (l *lifter) coercePair(a, b *planast.Expr, pos int32) {
	sa, sb := l.strfOf(*a), l.strfOf(*b)
	switch {
	case sa != "" && sb != "":
		if sa != sb {
			l.unsupported(pos, "a comparison of strftime texts of different formats")
		}
		return
	case sa != "":
		l.strfLiteral(b, sa, pos)
		return
	case sb != "":
		l.strfLiteral(a, sb, pos)
		return
	}
	at, bt := l.typeOf(*a), l.typeOf(*b)
	if l.sqlite() && (at == planast.TypeText && sqliteDateText(b) || bt == planast.TypeText && sqliteDateText(a)) {
		return
	}
	switch {
	case at == planast.TypeTimestamp:
		l.offsetLiteral(b, *a, pos)
		bt = l.midnight(b, l.typeOf(*b))
	case bt == planast.TypeTimestamp:
		l.offsetLiteral(a, *b, pos)
		at = l.midnight(a, l.typeOf(*a))
	}
	if comparableTypes(at, bt) {
		return
	}
	if l.coerceOne(a, at, b, pos) || l.coerceOne(b, bt, a, pos) {
		return
	}
	switch {
	case at.IsNumeric() && bt == planast.TypeText:
		l.numberVsText(a, b, pos)
	case at == planast.TypeText && bt.IsNumeric():
		l.numberVsText(b, a, pos)
	}
}

// sqliteDateText makes *p, SQLite's date('…') or datetime('…') of an ISO
// literal compared with text, the text SQLite compares: those functions
// return text, so ordered_at > date('2024-02-01') is a comparison of
// texts there, which a plan's date would make a type error.
// A date() of what is no literal (date('now', '-30 days')) is the text
// of that date, 'YYYY-MM-DD', as the plan casts a date to text.
func sqliteDateText(p *planast.Expr) bool {
	c, ok := (*p).(*planast.Cast)
	if !ok {
		return false
	}
	lit, ok := c.Expr.(*planast.Literal)
	if !ok && c.Type == planast.CastDate {
		*p = &planast.Cast{Expr: c, Type: planast.CastText}
		return true
	}
	if !ok || lit.Type != planast.TString {
		return false
	}
	s := lit.Text
	var out string
	switch {
	case c.Type == planast.CastDate && (validDate(s) || validTimestamp(s)):
		out = s[:10]
	case c.Type == planast.CastTimestamp && validDate(s):
		out = s + " 00:00:00"
	case c.Type == planast.CastTimestamp && validTimestamp(s):
		out = s[:19] // datetime() drops the fraction
	default:
		return false
	}
	*p = &planast.Literal{Type: planast.TString, Text: out}
	return true
}

// midnight makes *p, of type t and compared with a timestamp, the
// timestamp the source SQL compares with: a date is its midnight (a plan's
// date would cover its whole day), and so, on PostgreSQL, is a date string.
func (l *lifter) midnight(p *planast.Expr, t planast.Type) planast.Type {
	lit, _ := (*p).(*planast.Literal)
	switch {
	case lit != nil && (lit.Type == planast.TDate || lit.Type == planast.TString && !l.sqlite() && validDate(lit.Text)):
		*p = &planast.Literal{Type: planast.TTimestamp, Text: lit.Text + " 00:00:00"}
		return planast.TypeTimestamp
	case t == planast.TypeDate:
		*p = &planast.Cast{Expr: *p, Type: planast.CastTimestamp}
		return planast.TypeTimestamp
	}
	return t
}

// numberVsText applies SQLite's affinity to a comparison of the number
// *num with the text *txt, neither a literal. A side with numeric affinity
// makes SQLite read the text as a number: the text side becomes CAST(… AS
// decimal), SQLite's CAST AS NUMERIC (the one divergence: text that is no
// number reads as 0 there, where SQLite's affinity leaves it text that
// equals no number). Else a side with text affinity makes SQLite compare
// as text: the number becomes CAST(… AS text). With no affinity on either
// side SQLite finds them never equal, which the plan cannot say.
func (l *lifter) numberVsText(num, txt *planast.Expr, pos int32) {
	switch {
	case l.hasAffinity(*num):
		*txt = &planast.Cast{Expr: *txt, Type: planast.CastDecimal}
	case l.hasAffinity(*txt):
		*num = &planast.Cast{Expr: *num, Type: planast.CastText}
	default:
		l.unsupported(pos, "a comparison of a number with text, neither a column (SQLite finds them never equal)")
	}
}

var (
	dateRe      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timestampRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
)

func validDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return dateRe.MatchString(s) && err == nil
}

func validTimestamp(s string) bool {
	_, err := time.Parse("2006-01-02 15:04:05.999999999", s)
	return timestampRe.MatchString(s) && err == nil
}

// coerceOne applies coercePair's rules with *col the side whose type ct
// decides; it reports whether it handled the pair.
func (l *lifter) coerceOne(col *planast.Expr, ct planast.Type, other *planast.Expr, pos int32) bool {
	lit, isLit := (*other).(*planast.Literal)
	if !isLit || !l.hasAffinity(*col) {
		return false
	}
	switch {
	case ct.IsNumeric() && lit.Type == planast.TString:
		if n := numberLiteral(lit.Text); n != nil {
			*other = n
			return true
		}
		l.unsupported(pos, "a comparison of a number column with text that is not a number (%q)", truncateName(lit.Text, 40))
	case ct == planast.TypeText && (lit.Type == planast.TInteger || lit.Type == planast.TDecimal) && l.sqlite():
		*other = &planast.Literal{Type: planast.TString, Text: sqliteNumText(lit)}
		return true
	case ct.IsTemporal() && lit.Type == planast.TString:
		if ct == planast.TypeDate && validDate(lit.Text) || ct == planast.TypeTimestamp && validTimestamp(lit.Text) {
			return true
		}
		if l.sqlite() {
			if numberLiteral(lit.Text) != nil {
				// a DATE column has NUMERIC affinity: SQLite makes '2021'
				// the number 2021, and stored date text is greater than
				// any number
				l.unsupported(pos, "a comparison of a date column with a number written as text (SQLite compares the stored date text with a number)")
			}
			*col = &planast.Cast{Expr: *col, Type: planast.CastText}
			return true
		}
	case ct.IsTemporal() && (lit.Type == planast.TInteger || lit.Type == planast.TDecimal) && l.sqlite():
		l.unsupported(pos, "a comparison of a date column with a number (SQLite compares the stored date text with a number)")
	case ct == planast.TypeBoolean && lit.Type == planast.TInteger && (lit.Int == 0 || lit.Int == 1) && l.sqlite():
		*other = &planast.Literal{Type: planast.TBoolean, Bool: lit.Int == 1}
		return true
	case ct == planast.TypeBoolean && lit.Type == planast.TString && l.sqlite():
		// SQLite matches the rows stored as that very text; the plan reads
		// the column as the boolean every spelling means
		l.unsupportedHint(pos, "the plan reads a boolean column as true or false whatever its spelling ('yes', 'true', 1 are true; 'no', 'false', 0 false): write WHERE x for true or WHERE NOT x for false (SQLite's x = 'yes' matched only the rows stored as 'yes')",
			"a comparison of a boolean column with text")
	case ct == planast.TypeInteger && lit.Type == planast.TBoolean && l.sqlite():
		// SQLite's TRUE and FALSE are the integers 1 and 0: a flag kept
		// in an INTEGER column compared with TRUE is compared with 1
		*other = &planast.Literal{Type: planast.TInteger, Int: map[bool]int64{true: 1}[lit.Bool]}
		return true
	}
	return false
}

// hasAffinity reports whether SQLite gives e a column affinity: a column
// (of a table, or of a subquery that outputs a column or a CAST) or a CAST.
func (l *lifter) hasAffinity(e planast.Expr) bool {
	switch x := e.(type) {
	case *planast.Column:
		return l.columnInfo(x).affinity
	case *planast.Cast:
		return true
	case *planast.Subquery:
		cols := l.outCols[x.Query]
		return len(cols) == 1 && cols[0].affinity
	}
	return false
}

// sqliteNumText is the text SQLite gives a number literal.
func sqliteNumText(lit *planast.Literal) string {
	if lit.Type == planast.TInteger {
		return strconv.FormatInt(lit.Int, 10)
	}
	f, err := strconv.ParseFloat(lit.Text, 64)
	if err != nil {
		return lit.Text
	}
	s := strconv.FormatFloat(f, 'g', 15, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
