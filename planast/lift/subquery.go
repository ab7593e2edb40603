package lift

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// subLink lifts EXISTS, IN (subquery) and a scalar subquery; the subquery
// sees the enclosing scope (correlation).
func (l *lifter) subLink(s *pg.SubLink, sc *scope) planast.Expr {
	body := s.Subselect.GetSelectStmt()
	if body == nil {
		l.unsupported(s.Location, "a subquery that is not a SELECT")
	}
	switch s.SubLinkType {
	case pg.SubLinkType_EXISTS_SUBLINK:
		q, _ := l.query(body, sc, sc.env)
		return &planast.Exists{Subquery: q}
	case pg.SubLinkType_EXPR_SUBLINK:
		q, _ := l.query(body, sc, sc.env)
		return &planast.Subquery{Query: q}
	case pg.SubLinkType_ANY_SUBLINK:
		if op := opName(s.OperName); op != "" && op != "=" {
			l.unsupported(s.Location, "%s ANY (subquery)", op)
		}
		if s.Testexpr.GetRowExpr() != nil {
			l.unsupported(s.Location, "a row value IN (subquery)")
		}
		e := l.expr(s.Testexpr, sc)
		q, cols := l.query(body, sc, sc.env)
		if len(cols) == 1 && l.strfOf(e) != cols[0].strf {
			if l.strfOf(e) != "" {
				l.unsupported(s.Location, "strftime text IN a subquery of other values")
			}
			e = l.textify(e, s.Location)
		}
		if len(cols) == 1 {
			e = l.inSubqueryTypes(e, q, cols[0], s.Location)
		}
		return &planast.In{Expr: e, Subquery: q}
	}
	l.unsupported(s.Location, "%s subquery", strings.TrimSuffix(s.SubLinkType.String(), "_SUBLINK"))
	return nil
}

func (l *lifter) caseExpr(c *pg.CaseExpr, sc *scope) planast.Expr {
	out := &planast.Case{}
	if c.Arg != nil {
		out.Operand = l.expr(c.Arg, sc)
	}
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		var when planast.Expr
		if out.Operand != nil {
			when = l.expr(cw.Expr, sc)
			l.coercePair(&out.Operand, &when, cw.Location)
		} else {
			when = l.cond(cw.Expr, sc)
		}
		out.Whens = append(out.Whens, planast.When{When: when, Then: l.value(cw.Result, sc)})
	}
	if c.Defresult != nil {
		out.Else = l.value(c.Defresult, sc)
	}
	return out
}

// inSubqueryTypes applies SQLite's affinity to x IN (SELECT y ...) when one
// of x and y is a number and the other text, as numberVsText does for
// x = y: the text side is read as a number where the other has numeric
// affinity. It returns x, cast where needed; y is cast in every branch of
// q.
func (l *lifter) inSubqueryTypes(x planast.Expr, q *planast.Query, y column, pos int32) planast.Expr {
	xt := l.typeOf(x)
	switch {
	case xt.IsNumeric() && y.typ == planast.TypeText:
		switch {
		case l.hasAffinity(x):
			l.castOutput(q, planast.CastDecimal)
		case y.affinity:
			return &planast.Cast{Expr: x, Type: planast.CastText}
		default:
			l.unsupported(pos, "a number IN a subquery of text, neither a column (SQLite finds them never equal)")
		}
	case xt == planast.TypeText && y.typ.IsNumeric():
		switch {
		case y.affinity:
			return &planast.Cast{Expr: x, Type: planast.CastDecimal}
		case l.hasAffinity(x):
			l.castOutput(q, planast.CastText)
		default:
			l.unsupported(pos, "text IN a subquery of numbers, neither a column (SQLite finds them never equal)")
		}
	}
	return x
}

// castOutput casts q's first output column (in every set-operation branch)
// to t.
func (l *lifter) castOutput(q *planast.Query, t planast.CastType) {
	for _, b := range append([]*planast.Query{q}, setOpQueries(q)...) {
		b.Select[0].Expr = &planast.Cast{Expr: b.Select[0].Expr, Type: t}
	}
	if cols := l.outCols[q]; len(cols) > 0 {
		cols[0].typ = l.typeOf(q.Select[0].Expr)
		cols[0].affinity = true
	}
}
