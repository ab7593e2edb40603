package scope

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
)

// parseFilter lifts a row filter's where text into a filter expression.
// The text is read as an SQL expression by the one SQL machinery of the
// module (sqlscan's scanner, then PostgreSQL's parser), and the tree is
// walked accepting only this small grammar (a filter is configuration,
// not a query):
//
//	expr     := and { OR and }
//	and      := not { AND not }
//	not      := NOT not | pred
//	pred     := '(' expr ')' | operand [ tail ]
//	tail     := cmp operand | IS [NOT] NULL | [NOT] IN '(' operand {',' operand} ')'
//	          | [NOT] BETWEEN operand AND operand | [NOT] LIKE operand
//	cmp      := = | != | <> | < | <= | > | >=
//	operand  := column | table.column | :name | 'string' | [-]number | TRUE | FALSE | NULL
//
// Columns are bare or "double-quoted" identifiers, optionally qualified by
// the filtered table's own name (table is that name); a bare name keeps
// its spelling and may be any word but the grammar's keywords. Keywords
// are case-insensitive. Anything else (functions, arithmetic, casts,
// subqueries, comments) is an error: a filter that cannot be read exactly
// is refused at startup.
func parseFilter(where, table string) (fnode, error) {
	text, params, at, err := filterText(where)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("expected a column, a :parameter or a literal, found the end of the text")
	}
	const prefix = "SELECT WHERE "
	tree, err := pg.Parse(prefix + text)
	if err != nil {
		var pe *pgparser.Error
		if errors.As(err, &pe) {
			return nil, parseError(where, at, pe.Cursorpos-1-len(prefix), pe.Message)
		}
		return nil, fmt.Errorf("the row filter does not parse: %w", err)
	}
	if len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil || tree.Stmts[0].Stmt.GetSelectStmt().WhereClause == nil {
		return nil, fmt.Errorf("a row filter is one condition")
	}
	w := &fwalker{table: table, params: params}
	return w.expr(tree.Stmts[0].Stmt.GetSelectStmt().WhereClause)
}

// filterWords are the words the grammar reads as keywords; every other
// bare word is a column name.
var filterWords = map[string]bool{"and": true, "or": true, "not": true, "is": true, "in": true, "between": true,
	"like": true, "null": true, "true": true, "false": true}

var filterOps = map[string]bool{"=": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
	"(": true, ")": true, ",": true, ".": true, "-": true}

// parseError names the original token at byte pos of the rewritten text
// (at maps each rewritten token's start to it).
func parseError(where string, at []span, pos int, msg string) error {
	if strings.HasSuffix(msg, "at end of input") {
		return fmt.Errorf("expected a column, a :parameter or a literal, found the end of the text")
	}
	for i := len(at) - 1; i >= 0; i-- {
		if at[i].from <= pos {
			t := where[at[i].start:at[i].end]
			return fmt.Errorf("unexpected %q at byte %d in the row filter (%s)", t, at[i].start, msg)
		}
	}
	return fmt.Errorf("the row filter does not parse: %s", msg)
}

// span maps a token of the rewritten filter text (starting at from) to
// the original token [start, end).
type span struct{ from, start, end int }

// filterText rewrites where for the parser, token by token: a bare column
// name is double-quoted (its spelling kept, a reserved word allowed), the
// k-th distinct :name becomes $k (params[k-1] is name), and any token
// outside the grammar is an error naming it.
func filterText(where string) (string, []string, []span, error) {
	toks, err := sqlscan.Scan(where)
	if err != nil {
		var se *sqlscan.Error
		if errors.As(err, &se) {
			return "", nil, nil, fmt.Errorf("%s, at byte %d", se.Msg, se.Pos)
		}
		return "", nil, nil, err
	}
	var b strings.Builder
	var params []string
	var at []span
	index := map[string]int{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		b.WriteByte(' ')
		at = append(at, span{from: b.Len(), start: t.Start, end: t.End})
		switch {
		case t.Kind == sqlscan.Word && filterWords[strings.ToLower(t.Text)]:
			b.WriteString(t.Text)
		case t.Kind == sqlscan.Word:
			if i+1 < len(toks) && toks[i+1].Text == "(" {
				return "", nil, nil, fmt.Errorf("functions are not supported in row filters (%s at byte %d)", t.Text, t.Start)
			}
			b.WriteString(`"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`)
		case t.Kind == sqlscan.Op && t.Text == ":":
			if i+1 >= len(toks) || toks[i+1].Start != t.End || toks[i+1].Kind != sqlscan.Word {
				return "", nil, nil, fmt.Errorf("a parameter is :name, at byte %d", t.Start)
			}
			name := toks[i+1].Text
			k, ok := index[name]
			if !ok {
				params = append(params, name)
				k = len(params)
				index[name] = k
			}
			b.WriteString("$" + strconv.Itoa(k))
			at[len(at)-1].end = toks[i+1].End
			i++
		case t.Kind == sqlscan.Quoted && t.Text[0] == '"', t.Kind == sqlscan.String && t.Text[0] == '\'':
			b.WriteString(t.Text)
		case t.Kind == sqlscan.Number:
			if strings.Trim(t.Text, "0123456789.") != "" {
				return "", nil, nil, fmt.Errorf("%q at byte %d is not a number", t.Text, t.Start)
			}
			b.WriteString(t.Text)
		case t.Kind == sqlscan.Op && filterOps[t.Text]:
			b.WriteString(t.Text)
		default:
			return "", nil, nil, fmt.Errorf("unexpected %q at byte %d", t.Text, t.Start)
		}
	}
	return b.String(), params, at, nil
}

type fwalker struct {
	table  string
	params []string
}

var cmpOps = map[string]string{"=": planast.OpEq, "<>": planast.OpNe, "!=": planast.OpNe,
	"<": planast.OpLt, "<=": planast.OpLe, ">": planast.OpGt, ">=": planast.OpGe}

// expr walks a condition: AND, OR, NOT, a comparison, IS [NOT] NULL,
// [NOT] IN, [NOT] BETWEEN, [NOT] LIKE, or an operand alone (a boolean
// column or constant; the validator checks its type).
func (w *fwalker) expr(n *pg.Node) (fnode, error) {
	switch {
	case n.GetBoolExpr() != nil:
		be := n.GetBoolExpr()
		var args []fnode
		for _, a := range be.Args {
			x, err := w.expr(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
		switch be.Boolop {
		case pg.BoolExprType_NOT_EXPR:
			return fnot{args[0]}, nil
		case pg.BoolExprType_AND_EXPR:
			return chain(planast.OpAnd, args), nil
		default:
			return chain(planast.OpOr, args), nil
		}
	case n.GetNullTest() != nil:
		nt := n.GetNullTest()
		x, err := w.operand(nt.Arg)
		return fisnull{x: x, neg: nt.Nulltesttype == pg.NullTestType_IS_NOT_NULL}, err
	case n.GetAExpr() != nil:
		return w.aexpr(n.GetAExpr())
	}
	return w.operand(n)
}

// chain folds a flattened AND/OR to the left, as a b c reads ((a b) c).
func chain(op string, args []fnode) fnode {
	l := args[0]
	for _, r := range args[1:] {
		l = fbin{op: op, l: l, r: r}
	}
	return l
}

func (w *fwalker) aexpr(e *pg.A_Expr) (fnode, error) {
	op := ""
	if len(e.Name) == 1 {
		op = e.Name[0].GetString_().GetSval()
	}
	if e.Lexpr == nil {
		return nil, fmt.Errorf("expected a number after -")
	}
	x, err := w.operand(e.Lexpr)
	if err != nil {
		return nil, err
	}
	switch e.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		cmp, ok := cmpOps[op]
		if !ok {
			return nil, fmt.Errorf("unexpected %q in a row filter", op)
		}
		r, err := w.operand(e.Rexpr)
		return fbin{op: cmp, l: x, r: r}, err
	case pg.A_Expr_Kind_AEXPR_IN:
		n := fin{x: x, neg: op == "<>"}
		for _, item := range e.Rexpr.GetList().GetItems() {
			v, err := w.operand(item)
			if err != nil {
				return nil, err
			}
			n.list = append(n.list, v)
		}
		if len(n.list) == 0 {
			return nil, fmt.Errorf("expected ( after IN")
		}
		return n, nil
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		items := e.Rexpr.GetList().GetItems()
		if len(items) != 2 {
			return nil, fmt.Errorf("expected AND in BETWEEN")
		}
		lo, err := w.operand(items[0])
		if err != nil {
			return nil, err
		}
		hi, err := w.operand(items[1])
		return fbetween{x: x, lo: lo, hi: hi, neg: e.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN}, err
	case pg.A_Expr_Kind_AEXPR_LIKE:
		pat, err := w.operand(e.Rexpr)
		return flike{x: x, pat: pat, neg: op == "!~~"}, err
	}
	return nil, fmt.Errorf("only =, !=, <>, <, <=, >, >=, IS [NOT] NULL, [NOT] IN, [NOT] BETWEEN and [NOT] LIKE are supported in row filters")
}

// operand walks a column, a :parameter or a literal.
func (w *fwalker) operand(n *pg.Node) (fnode, error) {
	switch {
	case n.GetColumnRef() != nil:
		var parts []string
		for _, f := range n.GetColumnRef().Fields {
			s := f.GetString_()
			if s == nil {
				return nil, fmt.Errorf("expected a column, a :parameter or a literal, found *")
			}
			parts = append(parts, s.Sval)
		}
		switch {
		case len(parts) == 2 && !strings.EqualFold(parts[0], w.table):
			return nil, fmt.Errorf("%q qualifies a column with another table than the filtered one (%s)", parts[0], w.table)
		case len(parts) > 2:
			return nil, fmt.Errorf("%q: a column is name or table.name", strings.Join(parts, "."))
		}
		return fcol{name: parts[len(parts)-1]}, nil
	case n.GetParamRef() != nil:
		k := int(n.GetParamRef().Number)
		if k < 1 || k > len(w.params) {
			return nil, fmt.Errorf("a parameter is :name")
		}
		return fparam{w.params[k-1]}, nil
	case n.GetAConst() != nil:
		c := n.GetAConst()
		switch {
		case c.Isnull:
			return flit{planast.Literal{Type: planast.TNull}}, nil
		case c.GetBoolval() != nil:
			return flit{planast.Literal{Type: planast.TBoolean, Bool: c.GetBoolval().Boolval}}, nil
		case c.GetSval() != nil:
			return flit{planast.Literal{Type: planast.TString, Text: c.GetSval().Sval}}, nil
		case c.GetIval() != nil:
			return flit{planast.Literal{Type: planast.TInteger, Int: int64(c.GetIval().Ival)}}, nil
		case c.GetFval() != nil:
			return number(c.GetFval().Fval)
		}
	case n.GetFuncCall() != nil:
		return nil, fmt.Errorf("functions are not supported in row filters")
	}
	return nil, fmt.Errorf("expected a column, a :parameter or a literal")
}

// number reads a literal PostgreSQL's parser left as text: an integer too
// large for 32 bits, or a decimal.
func number(s string) (fnode, error) {
	if !strings.Contains(s, ".") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a 64-bit integer", s)
		}
		return flit{planast.Literal{Type: planast.TInteger, Int: n}}, nil
	}
	if strings.HasSuffix(s, ".") {
		return nil, fmt.Errorf("%q is not a number", s)
	}
	return flit{planast.Literal{Type: planast.TDecimal, Text: s}}, nil
}
