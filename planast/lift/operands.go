package lift

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// numeric makes e an operand of arithmetic: text is cast to a number as
// SQLite reads it; dates and booleans are refused.
func (l *lifter) numeric(e planast.Expr, pos int32) planast.Expr {
	if c, ok := e.(*planast.Case); ok && mixedBranches(l, c) {
		// CASE branches of text and numbers (SQLite keeps each value's
		// type) read as numbers here: each branch is made a number
		out := &planast.Case{Operand: c.Operand}
		for _, w := range c.Whens {
			out.Whens = append(out.Whens, planast.When{When: w.When, Then: l.numeric(w.Then, pos)})
		}
		if c.Else != nil {
			out.Else = l.numeric(c.Else, pos)
		}
		return out
	}
	switch t := l.typeOf(e); {
	case t == planast.TypeText:
		if lit, ok := e.(*planast.Literal); ok {
			if n := numberLiteral(lit.Text); n != nil && l.sqlite() {
				return n
			}
		}
		if !l.sqlite() {
			l.unsupported(pos, "arithmetic on text")
		}
		return &planast.Cast{Expr: e, Type: planast.CastDecimal}
	case t.IsTemporal() && l.sqlite():
		l.unsupported(pos, "arithmetic on a %s (SQLite reads its leading number)", t)
	case t.IsTemporal():
		// date ± a whole number of days lifted before (dayShift): what is
		// left is an error on PostgreSQL and DuckDB too (timestamp + 1,
		// 7 - date, date + 1.5)
		l.unsupportedHint(pos, "a date plus or minus a whole number of days lifts (date - 7 is DATE_ADD('day', -7, x)); shift a timestamp with x - interval '7 days', which lifts as DATE_ADD('day', -7, x); the span between two is DATE_DIFF_DAYS(end, start) or ELAPSED_SECONDS(end, start)",
			"arithmetic on a %s", t)
	case t == planast.TypeBoolean:
		// SQLite's true and false are 1 and 0, NULL stays NULL
		one, zero := &planast.Literal{Type: planast.TInteger, Int: 1}, &planast.Literal{Type: planast.TInteger}
		return &planast.Case{Whens: []planast.When{{When: e, Then: one}, {When: negate(cloneBool(e)), Then: zero}}}
	}
	return e
}

// mixedBranches reports a CASE whose results are of more than one kind.
func mixedBranches(l *lifter, c *planast.Case) bool {
	kinds := map[bool]bool{}
	add := func(e planast.Expr) {
		if t := l.typeOf(e); t != planast.TypeUnknown {
			kinds[t.IsNumeric()] = true
		}
	}
	for _, w := range c.Whens {
		add(w.Then)
	}
	if c.Else != nil {
		add(c.Else)
	}
	return len(kinds) > 1
}

// cloneBool copies the top node of a condition, so that negating the copy
// leaves e as it is.
func cloneBool(e planast.Expr) planast.Expr {
	switch x := e.(type) {
	case *planast.In:
		c := *x
		return &c
	case *planast.Exists:
		c := *x
		return &c
	case *planast.Like:
		c := *x
		return &c
	case *planast.Between:
		c := *x
		return &c
	case *planast.IsNull:
		c := *x
		return &c
	}
	return e
}

// concat lifts a || b || ...: CONCAT of text, other values cast to text as
// SQLite converts them.
func (l *lifter) concat(a *pg.A_Expr, sc *scope) planast.Expr {
	var parts []*pg.Node
	var walk func(n *pg.Node)
	walk = func(n *pg.Node) {
		if x := n.GetAExpr(); x != nil && x.Kind == pg.A_Expr_Kind_AEXPR_OP && opName(x.Name) == "||" && x.Lexpr != nil {
			walk(x.Lexpr)
			walk(x.Rexpr)
			return
		}
		parts = append(parts, n)
	}
	walk(a.Lexpr)
	walk(a.Rexpr)
	f := &planast.Func{Name: "CONCAT"}
	for _, p := range parts {
		f.Args = append(f.Args, l.text(l.value(p, sc), location(p)))
	}
	return f
}

// text makes e a text argument: other values are cast to text, as SQLite
// converts them when a text function reads them.
func (l *lifter) text(e planast.Expr, pos int32) planast.Expr {
	switch t := l.typeOf(e); {
	case t == planast.TypeText || t == planast.TypeUnknown:
		return e
	case t == planast.TypeBoolean || t == planast.TypeBlob:
		l.unsupported(pos, "a %s value used as text", t)
	}
	if lit, ok := e.(*planast.Literal); ok && lit.Type == planast.TInteger {
		return &planast.Literal{Type: planast.TString, Text: strconv.FormatInt(lit.Int, 10)}
	}
	return &planast.Cast{Expr: e, Type: planast.CastText}
}

// like lifts [NOT] LIKE / ILIKE. SQLite's LIKE ignores ASCII case and has
// no escape character; PostgreSQL's LIKE is case-sensitive and escapes with
// a backslash, as the plan's does. lower(x) LIKE lower(y), or lower(x) LIKE
// a pattern without capitals, is a case-insensitive match. The plan's
// case-insensitive match folds every letter, so a lifted SQLite LIKE also
// matches 'å' with 'Å', which SQLite's own LIKE does not.
func (l *lifter) like(a *pg.A_Expr, op string, sc *scope) planast.Expr {
	if f := a.Rexpr.GetFuncCall(); f != nil && strings.EqualFold(opName(f.Funcname), "like_escape") {
		l.unsupported(a.Location, "LIKE ... ESCAPE")
	}
	lk := &planast.Like{Negated: strings.HasPrefix(op, "!"), CaseInsensitive: l.sqlite() || a.Kind == pg.A_Expr_Kind_AEXPR_ILIKE}
	x := l.value(a.Lexpr, sc)
	p := l.value(a.Rexpr, sc)
	lowerX, lowerP := isLower(x), isLower(p)
	lit, isLit := p.(*planast.Literal)
	if lowerP {
		lit, isLit = p.(*planast.Func).Args[0].(*planast.Literal)
	}
	if lowerX && (lowerP || isLit && lit.Type == planast.TString && lit.Text == strings.ToLower(lit.Text)) {
		lk.CaseInsensitive = true
		x = x.(*planast.Func).Args[0]
		if lowerP {
			p = p.(*planast.Func).Args[0]
		}
	}
	if l.sqlite() {
		pl, ok := p.(*planast.Literal)
		if !ok || pl.Type != planast.TString {
			l.unsupported(a.Location, "LIKE with a pattern that is not a string literal")
		}
		p = &planast.Literal{Type: planast.TString, Text: strings.ReplaceAll(pl.Text, `\`, `\\`)}
	}
	lk.Expr = l.text(x, a.Location)
	lk.Pattern = p
	return lk
}

func isLower(e planast.Expr) bool {
	f, ok := e.(*planast.Func)
	return ok && f.Name == "LOWER" && len(f.Args) == 1
}
