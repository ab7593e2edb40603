package warnings

import (
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// exprText is e written as SQL reads, short: names as the plan writes
// them (alias.column), unquoted, and no parentheses but those the order
// of operations needs. A warning names with it the expression the plan
// holds (SUM(o.qty * p.weight)): one that named the column alone
// (SUM(p.weight)) pointed at an expression the plan does not hold. A
// subquery is "(SELECT …)": a warning names the expression around it,
// not its query.
func exprText(e planast.Expr) string {
	switch x := e.(type) {
	case nil:
		return "NULL"
	case *planast.Column:
		if x.Table == "" {
			return x.Column
		}
		return x.Table + "." + x.Column
	case *planast.Literal:
		switch x.Type {
		case planast.TInteger:
			return strconv.FormatInt(x.Int, 10)
		case planast.TDecimal:
			return x.Text
		case planast.TBoolean:
			return strconv.FormatBool(x.Bool)
		case planast.TNull:
			return "NULL"
		}
		return "'" + strings.ReplaceAll(x.Text, "'", "''") + "'"
	case *planast.Binary:
		p := precedence(x.Op)
		return operand(x.Left, p, false) + " " + opText(x.Op) + " " + operand(x.Right, p, true)
	case *planast.Unary:
		if x.Op == "-" {
			return "-" + operand(x.Expr, precedence(planast.OpMul)+1, false)
		}
		return "NOT " + operand(x.Expr, precedence(planast.OpEq), false)
	case *planast.Func:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = exprText(a)
		}
		in := strings.Join(args, ", ")
		if len(x.Args) == 0 && strings.EqualFold(x.Name, "COUNT") {
			in = "*"
		}
		if x.Distinct {
			in = "DISTINCT " + in
		}
		return strings.ToUpper(x.Name) + "(" + in + ")"
	case *planast.Window:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = exprText(a)
		}
		return strings.ToUpper(x.Name) + "(" + strings.Join(args, ", ") + ") OVER (…)"
	case *planast.Cast:
		return "CAST(" + exprText(x.Expr) + " AS " + string(x.Type) + ")"
	case *planast.Case:
		var b strings.Builder
		b.WriteString("CASE")
		if x.Operand != nil {
			b.WriteString(" " + exprText(x.Operand))
		}
		for _, w := range x.Whens {
			b.WriteString(" WHEN " + exprText(w.When) + " THEN " + exprText(w.Then))
		}
		if x.Else != nil {
			b.WriteString(" ELSE " + exprText(x.Else))
		}
		return b.String() + " END"
	case *planast.IsNull:
		if x.Negated {
			return exprText(x.Expr) + " IS NOT NULL"
		}
		return exprText(x.Expr) + " IS NULL"
	case *planast.In:
		list := "SELECT …"
		if x.Subquery == nil {
			items := make([]string, len(x.List))
			for i, l := range x.List {
				items[i] = exprText(l)
			}
			list = strings.Join(items, ", ")
		}
		return exprText(x.Expr) + negated(x.Negated) + " IN (" + list + ")"
	case *planast.Between:
		return exprText(x.Expr) + negated(x.Negated) + " BETWEEN " + exprText(x.Low) + " AND " + exprText(x.High)
	case *planast.Like:
		like := " LIKE "
		if x.CaseInsensitive {
			like = " ILIKE "
		}
		return exprText(x.Expr) + negated(x.Negated) + like + exprText(x.Pattern)
	case *planast.Exists:
		return strings.TrimPrefix(negated(x.Negated)+" EXISTS (SELECT …)", " ")
	case *planast.Subquery:
		return "(SELECT …)"
	}
	return e.Kind()
}

// operand is e as an operand of an operator of precedence p, in
// parentheses when it binds less tightly, or as tightly on the right
// (a - (b - c)).
func operand(e planast.Expr, p int, right bool) string {
	s := exprText(e)
	switch x := e.(type) {
	case *planast.Binary:
		if q := precedence(x.Op); q < p || q == p && right {
			return "(" + s + ")"
		}
	case *planast.Between, *planast.Like, *planast.In, *planast.IsNull:
		if p > precedence(planast.OpEq) {
			return "(" + s + ")"
		}
	case *planast.Unary:
		if x.Op != "-" && p > precedence(planast.OpAnd) {
			return "(" + s + ")"
		}
	}
	return s
}

// precedence orders the binary operators as SQL binds them.
func precedence(op string) int {
	switch strings.ToLower(op) {
	case planast.OpOr:
		return 1
	case planast.OpAnd:
		return 2
	case planast.OpEq, planast.OpNe, planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
		return 3
	case planast.OpAdd, planast.OpSub:
		return 4
	}
	return 5 // * / div %
}

// opText is a binary operator as SQL writes it.
func opText(op string) string {
	switch strings.ToLower(op) {
	case planast.OpAnd, planast.OpOr, planast.OpIDiv:
		return strings.ToUpper(op)
	}
	return op
}

// negated is the NOT of a negated IN, BETWEEN, LIKE or EXISTS.
func negated(n bool) string {
	if n {
		return " NOT"
	}
	return ""
}
