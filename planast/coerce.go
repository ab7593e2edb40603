package planast

import "strings"

// Comparisons between dates, timestamps and text. SQLite stores both as ISO
// text and compares them as text, so DATE '2021-01-01' and TIMESTAMP
// '2021-01-01 00:00:00' differ there while PostgreSQL and DuckDB find them
// equal; and PostgreSQL refuses to compare a date with a text column. The
// validator therefore makes such comparisons explicit in the validated plan,
// where it can, so that the SQL means the same everywhere:
//
//   - a date compared with a timestamp is cast to timestamp (a date literal
//     becomes a timestamp literal at midnight);
//   - a string literal compared with a date or timestamp becomes a date or
//     timestamp literal when it is one, and is refused when it is not;
//   - anything else (a text column against a date, a date against a
//     timestamp where no side can be rewritten) is refused with a hint.

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
	case at == TypeDate && bt == TypeTimestamp && a != nil:
		toTimestamp(a)
		return TypeTimestamp, bt, "", true
	case at == TypeTimestamp && bt == TypeDate && b != nil:
		toTimestamp(b)
		return at, TypeTimestamp, "", true
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
	case at.IsTemporal() && bt.IsTemporal():
		return at, bt, "; cast the date side: CAST(x AS timestamp)", false
	}
	return at, bt, "", false
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
		return "; cast the text first: CAST(x AS " + string(t) + ")", false
	}
	s := lit.Text
	switch {
	case dateRe.MatchString(s) && validCalendar("2006-01-02", s):
		if t == TypeDate {
			lit.Type = TDate
		} else {
			lit.Type, lit.Text = TTimestamp, s+" 00:00:00"
		}
		return "", true
	case t == TypeTimestamp:
		s = strings.Replace(s, "T", " ", 1)
		if timestampRe.MatchString(s) && validCalendar("2006-01-02 15:04:05.999999999", s) {
			lit.Type, lit.Text = TTimestamp, s
			return "", true
		}
		return "; " + quoteShort(lit.Text) + " is not a timestamp: write YYYY-MM-DD HH:MM:SS", false
	}
	return "; " + quoteShort(lit.Text) + " is not a date: write YYYY-MM-DD", false
}

func quoteShort(s string) string { return `"` + truncate(s, 40) + `"` }

// nullOperand reports an operand whose only value is an untyped NULL: the
// engines cannot all pick a type for it (PostgreSQL refuses SUM(NULL),
// NULL + NULL and -NULL, and reads an all-NULL CASE as text).
func (v *validator) nullOperand(path, what string) {
	v.add(CodeType, path, "%s gets only NULL here, which has no type; cast it, e.g. CAST(NULL AS integer), or leave it out", what)
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
