package lift

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// expr lifts an expression in scope sc. A strftime call comes back as a
// DATE_PART marked with its format (strfOf): comparisons and arithmetic use
// the number, value turns it back into SQLite's text.
func (l *lifter) expr(n *pg.Node, sc *scope) planast.Expr {
	if n == nil {
		l.fail(-1, "missing expression")
	}
	switch x := n.Node.(type) {
	case *pg.Node_ColumnRef:
		return l.columnRef(x.ColumnRef, sc)
	case *pg.Node_AConst:
		return l.constant(x.AConst)
	case *pg.Node_AExpr:
		return l.aexpr(x.AExpr, sc)
	case *pg.Node_BoolExpr:
		return l.boolExpr(x.BoolExpr, sc)
	case *pg.Node_NullTest:
		e := l.value(x.NullTest.Arg, sc)
		return &planast.IsNull{Expr: e, Negated: x.NullTest.Nulltesttype == pg.NullTestType_IS_NOT_NULL}
	case *pg.Node_SubLink:
		return l.subLink(x.SubLink, sc)
	case *pg.Node_CaseExpr:
		return l.caseExpr(x.CaseExpr, sc)
	case *pg.Node_TypeCast:
		return l.cast(x.TypeCast, sc)
	case *pg.Node_FuncCall:
		return l.funcCall(x.FuncCall, sc)
	case *pg.Node_CoalesceExpr:
		f := &planast.Func{Name: "COALESCE"}
		for _, a := range x.CoalesceExpr.Args {
			f.Args = append(f.Args, l.value(a, sc))
		}
		if len(f.Args) < 2 {
			l.fail(x.CoalesceExpr.Location, "COALESCE needs at least two arguments")
		}
		return f
	case *pg.Node_MinMaxExpr:
		l.unsupported(x.MinMaxExpr.Location, "GREATEST/LEAST")
	case *pg.Node_SqlvalueFunction:
		switch x.SqlvalueFunction.Op {
		case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return call("CURRENT_DATE")
		case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:
			return l.currentTimestamp()
		case pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:
			return call("CURRENT_TIMESTAMP")
		}
		l.unsupported(x.SqlvalueFunction.Location, "the current time of day (CURRENT_TIME, LOCALTIME)")
	case *pg.Node_BooleanTest:
		l.unsupported(x.BooleanTest.Location, "IS TRUE / IS FALSE")
	case *pg.Node_CollateClause:
		l.unsupported(x.CollateClause.Location, "COLLATE")
	case *pg.Node_ParamRef:
		l.unsupported(x.ParamRef.Location, "a query parameter")
	case *pg.Node_RowExpr:
		l.unsupported(x.RowExpr.Location, "a row value")
	}
	l.unsupported(location(n), "this kind of expression (%T)", n.Node)
	return nil
}

// value lifts an expression whose SQLite value is used as it is (an output
// column, a function argument, a CASE result): strftime stays text.
func (l *lifter) value(n *pg.Node, sc *scope) planast.Expr {
	return l.textify(l.expr(n, sc), location(n))
}

// cond lifts a condition. SQLite takes a number as a condition (non-zero is
// true): such a number x becomes x <> 0, which means the same.
func (l *lifter) cond(n *pg.Node, sc *scope) planast.Expr {
	e := l.expr(n, sc)
	switch t := l.typeOf(e); {
	case t.IsNumeric():
		if l.strfOf(e) != "" {
			l.unsupported(location(n), "strftime text used as a condition")
		}
		return &planast.Binary{Op: planast.OpNe, Left: e, Right: &planast.Literal{Type: planast.TInteger}}
	case t == planast.TypeText || t.IsTemporal():
		l.unsupported(location(n), "a %s value used as a condition", t)
	}
	return e
}

var (
	intRe = regexp.MustCompile(`^-?[0-9]+$`)
	decRe = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)$`)
)

// constant lifts a literal.
func (l *lifter) constant(c *pg.A_Const) planast.Expr {
	if c.Isnull {
		return &planast.Literal{Type: planast.TNull}
	}
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		return &planast.Literal{Type: planast.TInteger, Int: int64(v.Ival.Ival)}
	case *pg.A_Const_Fval:
		if lit := numberLiteral(v.Fval.Fval); lit != nil {
			return lit
		}
		l.fail(c.Location, "malformed number %q", v.Fval.Fval)
	case *pg.A_Const_Sval:
		return &planast.Literal{Type: planast.TString, Text: v.Sval.Sval}
	case *pg.A_Const_Boolval:
		return &planast.Literal{Type: planast.TBoolean, Bool: v.Boolval.Boolval}
	case *pg.A_Const_Bsval:
		l.unsupported(c.Location, "a bit-string or blob literal")
	}
	l.unsupported(c.Location, "this kind of literal")
	return nil
}

// numberLiteral lifts the text of a number: an integer when it is one that
// fits 64 bits, else a decimal in the plan's canonical shape (1.5, 0.5,
// 1000.0); nil when s is not a number.
func numberLiteral(s string) *planast.Literal {
	s = strings.TrimSpace(s)
	if intRe.MatchString(s) {
		if k, err := strconv.ParseInt(s, 10, 64); err == nil {
			return &planast.Literal{Type: planast.TInteger, Int: k}
		}
		return &planast.Literal{Type: planast.TDecimal, Text: strings.TrimPrefix(s, "+") + ".0"}
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if decRe.MatchString(body) {
		if strings.HasPrefix(body, ".") {
			body = "0" + body
		}
		if strings.HasSuffix(body, ".") {
			body += "0"
		}
		if neg {
			body = "-" + body
		}
		return &planast.Literal{Type: planast.TDecimal, Text: body}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	f, _ := r.Float64()
	t := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(t, ".") {
		t += ".0"
	}
	return &planast.Literal{Type: planast.TDecimal, Text: t}
}

// opName is an operator's name from an A_Expr or SubLink name list.
func opName(names []*pg.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func (l *lifter) aexpr(a *pg.A_Expr, sc *scope) planast.Expr {
	op := opName(a.Name)
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		if a.Lexpr == nil {
			switch op {
			case "-":
				e := l.numeric(l.expr(a.Rexpr, sc), a.Location)
				if lit, ok := e.(*planast.Literal); ok && lit.Type == planast.TInteger {
					return &planast.Literal{Type: planast.TInteger, Int: -lit.Int}
				}
				if lit, ok := e.(*planast.Literal); ok && lit.Type == planast.TDecimal && !strings.HasPrefix(lit.Text, "-") {
					return &planast.Literal{Type: planast.TDecimal, Text: "-" + lit.Text}
				}
				return &planast.Unary{Op: "-", Expr: e}
			case "+":
				return l.numeric(l.expr(a.Rexpr, sc), a.Location)
			}
			l.unsupported(a.Location, "prefix operator %s", op)
		}
		switch op {
		case "=", "<>", "!=", "<", "<=", ">", ">=":
			return l.compare(op, l.expr(a.Lexpr, sc), l.expr(a.Rexpr, sc), a.Location)
		case "+", "-", "*", "/", "%":
			return l.arith(op, a, sc)
		case "//":
			if l.duckdb() {
				return l.arith(op, a, sc)
			}
		case "||":
			return l.concat(a, sc)
		case "->", "->>", "#>", "#>>", "@>", "?":
			// JSON text is what a plan can search: the cast to text of a
			// document or array is its JSON on every engine
			l.unsupportedHint(a.Location, `the plan language reads no JSON paths: cast the document to text and match its JSON text with LIKE (e.g. '%"manager": "Ann"%'), or select the whole document`,
				"operator %s", op)
		}
		l.unsupported(a.Location, "operator %s", op)
	case pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
		return l.like(a, op, sc)
	case pg.A_Expr_Kind_AEXPR_IN:
		e := l.expr(a.Lexpr, sc)
		items := a.Rexpr.GetList().GetItems()
		in := &planast.In{Negated: op == "<>"}
		for _, it := range items {
			x := l.expr(it, sc)
			l.coercePair(&e, &x, a.Location)
			in.List = append(in.List, x)
		}
		in.Expr = e
		return in
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		items := a.Rexpr.GetList().GetItems()
		if len(items) != 2 {
			l.fail(a.Location, "BETWEEN needs two bounds")
		}
		e := l.expr(a.Lexpr, sc)
		lo, hi := l.expr(items[0], sc), l.expr(items[1], sc)
		l.coercePair(&e, &lo, a.Location)
		l.coercePair(&e, &hi, a.Location)
		return &planast.Between{Expr: e, Low: lo, High: hi, Negated: a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN}
	case pg.A_Expr_Kind_AEXPR_NULLIF:
		return &planast.Func{Name: "NULLIF", Args: []planast.Expr{l.value(a.Lexpr, sc), l.value(a.Rexpr, sc)}}
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l.unsupported(a.Location, "IS [NOT] DISTINCT FROM (SQLite's IS / IS NOT between values)")
	case pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
		l.unsupportedHint(a.Location, `for x = ANY of a list write x IN (…); for an array column, cast it to text and match its JSON text with LIKE (e.g. '%"cold"%')`,
			"ANY/ALL")
	case pg.A_Expr_Kind_AEXPR_SIMILAR:
		l.unsupported(a.Location, "SIMILAR TO")
	}
	l.unsupported(a.Location, "BETWEEN SYMMETRIC")
	return nil
}

// arith lifts + - * / % (and DuckDB's //). SQLite and PostgreSQL divide
// two integers as integers: that is the plan's div; any other division,
// and every DuckDB /, is "/". Text operands are numbers to
// SQLite's arithmetic: they are cast (CAST AS NUMERIC keeps SQLite's
// reading of a leading number).
func (l *lifter) arith(op string, a *pg.A_Expr, sc *scope) planast.Expr {
	if op == "-" {
		if d := l.julianDiff(a, sc); d != nil {
			return d
		}
	}
	if d := l.shift(op, a, sc); d != nil {
		return d
	}
	left, right := l.expr(a.Lexpr, sc), l.expr(a.Rexpr, sc)
	if d := l.dayShift(op, left, right); d != nil {
		return d
	}
	left, right = l.numeric(left, a.Location), l.numeric(right, a.Location)
	lt, rt := l.typeOf(left), l.typeOf(right)
	switch op {
	case "/":
		// SQLite and PostgreSQL divide two integers as integers; DuckDB
		// divides as floats (its // is the integer division)
		if lt == planast.TypeInteger && rt == planast.TypeInteger && !l.duckdb() {
			op = planast.OpIDiv
		}
	case "//":
		op = planast.OpIDiv
	case "%":
		if lt != planast.TypeInteger && lt != planast.TypeUnknown {
			left = &planast.Cast{Expr: left, Type: planast.CastInteger}
		}
		if rt != planast.TypeInteger && rt != planast.TypeUnknown {
			right = &planast.Cast{Expr: right, Type: planast.CastInteger}
		}
	}
	return &planast.Binary{Op: op, Left: left, Right: right}
}

func (l *lifter) boolExpr(b *pg.BoolExpr, sc *scope) planast.Expr {
	switch b.Boolop {
	case pg.BoolExprType_AND_EXPR, pg.BoolExprType_OR_EXPR:
		op := planast.OpAnd
		if b.Boolop == pg.BoolExprType_OR_EXPR {
			op = planast.OpOr
		}
		var out planast.Expr
		for _, a := range b.Args {
			c := l.cond(a, sc)
			if out == nil {
				out = c
			} else {
				out = &planast.Binary{Op: op, Left: out, Right: c}
			}
		}
		return out
	case pg.BoolExprType_NOT_EXPR:
		return negate(l.cond(b.Args[0], sc))
	}
	l.unsupported(b.Location, "boolean operator %s", b.Boolop)
	return nil
}

// negate returns NOT e, folded into the node's own negation where it has
// one (NOT x IN (...) is x NOT IN (...)).
func negate(e planast.Expr) planast.Expr {
	switch x := e.(type) {
	case *planast.In:
		x.Negated = !x.Negated
	case *planast.Exists:
		x.Negated = !x.Negated
	case *planast.Like:
		x.Negated = !x.Negated
	case *planast.Between:
		x.Negated = !x.Negated
	case *planast.IsNull:
		x.Negated = !x.Negated
	default:
		return &planast.Unary{Op: "not", Expr: e}
	}
	return e
}

// location is a node's position in the normalised text, or -1.
func location(n *pg.Node) int32 {
	if n == nil {
		return -1
	}
	switch x := n.Node.(type) {
	case *pg.Node_ColumnRef:
		return x.ColumnRef.Location
	case *pg.Node_AConst:
		return x.AConst.Location
	case *pg.Node_AExpr:
		return x.AExpr.Location
	case *pg.Node_FuncCall:
		return x.FuncCall.Location
	case *pg.Node_TypeCast:
		return x.TypeCast.Location
	case *pg.Node_SubLink:
		return x.SubLink.Location
	case *pg.Node_CaseExpr:
		return x.CaseExpr.Location
	case *pg.Node_BoolExpr:
		return x.BoolExpr.Location
	case *pg.Node_NullTest:
		return x.NullTest.Location
	case *pg.Node_CoalesceExpr:
		return x.CoalesceExpr.Location
	}
	return -1
}
