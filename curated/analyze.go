package curated

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// analysis is what the parse tree says about a verified query.
type analysis struct {
	tables  []tableRef
	columns [][]string // every column reference's names ("c", "Email"), as the parser gave them
	star    bool       // a * or t.* anywhere
	natural bool       // a NATURAL join
	using   []string   // USING (…) column names
	params  int        // the highest $k
	// compared pairs a parameter ($k) with the column it is compared to
	// with = (c = $k, $k = c, either side cast): its value is meant to be
	// one of the column's stored values
	compared []paramColumn
}

// paramColumn is one comparison of parameter $k with a column reference.
type paramColumn struct {
	param int
	names []string // the column reference's names ("c", "last_name")
}

// tableRef is one read of a stored table (not a CTE).
type tableRef struct {
	schema, name string
	loc          int // byte offset of the name in the parsed text
	alias        string
	hasAlias     bool
	only         bool // ONLY t (PostgreSQL): cannot be wrapped
}

// analyze parses text (a prepared query) with PostgreSQL's parser and
// refuses anything but exactly one plain SELECT (or WITH … SELECT) whose
// functions are on dialect's allow-list. It records every stored-table
// read, resolving CTE names by their scope as the databases do, and every
// column reference, for the access checks.
func analyze(text, dialect string, allowRecursive bool) (*analysis, *Error) {
	tree, err := pg.Parse(text)
	if err != nil {
		return nil, refusef(CodeParse, "the SQL does not parse: %v", err)
	}
	switch n := len(tree.Stmts); {
	case n == 0:
		return nil, refusef(CodeStatements, "the SQL holds no statement")
	case n > 1:
		return nil, refusef(CodeStatements, "the SQL holds %d statements; exactly one SELECT is allowed", n)
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return nil, refusef(CodeNotSelect, "only SELECT or WITH … SELECT is allowed, not %s", stmtKind(tree.Stmts[0].Stmt))
	}
	a := &analyzer{dialect: dialect, recursive: allowRecursive, out: &analysis{}}
	a.walk(sel.ProtoReflect(), nil)
	if a.err != nil {
		return nil, a.err
	}
	return a.out, nil
}

func stmtKind(n *pg.Node) string {
	if n == nil || n.Node == nil {
		return "an empty statement"
	}
	name := string(n.ProtoReflect().WhichOneof(n.ProtoReflect().Descriptor().Oneofs().ByName("node")).Message().Name())
	return strings.TrimSuffix(name, "Stmt") + " statement"
}

// cteScope is the CTE names visible at a point; pending names belong to
// the WITH being defined and are not visible yet (non-recursive WITH).
type cteScope struct {
	parent  *cteScope
	names   map[string]bool
	pending map[string]bool
}

// lookup: 1 a visible CTE, -1 a pending one or a case-only match (refused:
// the engines disagree on it), 0 none.
func (c *cteScope) lookup(name string) int {
	for ; c != nil; c = c.parent {
		if c.names[name] {
			return 1
		}
		for n := range c.names {
			if strings.EqualFold(n, name) {
				return -1
			}
		}
		for n := range c.pending {
			if strings.EqualFold(n, name) {
				return -1
			}
		}
	}
	return 0
}

type analyzer struct {
	dialect   string
	recursive bool
	out       *analysis
	err       *Error
}

func (a *analyzer) fail(code, format string, args ...any) {
	if a.err == nil {
		a.err = refusef(code, format, args...)
	}
}

// walk visits m and everything below it.
func (a *analyzer) walk(m protoreflect.Message, env *cteScope) {
	if a.err != nil || !m.IsValid() {
		return
	}
	skip := ""
	switch x := m.Interface().(type) {
	case *pg.SelectStmt:
		if x.IntoClause != nil {
			a.fail(CodeInto, "SELECT … INTO creates a table")
			return
		}
		if len(x.LockingClause) > 0 {
			a.fail(CodeLocking, "FOR UPDATE/SHARE takes locks")
			return
		}
		if x.WithClause != nil {
			env = a.with(x.WithClause, env)
			skip = "with_clause"
		}
	case *pg.RangeVar:
		a.rangeVar(x, env)
		return
	case *pg.FuncCall:
		a.funcCall(x)
	case *pg.RangeFunction:
		a.fail(CodeTableFunc, "functions in FROM are not allowed")
		return
	case *pg.RangeTableFunc, *pg.RangeTableFuncCol:
		a.fail(CodeTableFunc, "XMLTABLE is not allowed")
		return
	case *pg.RangeTableSample:
		a.fail(CodeTableFunc, "TABLESAMPLE is not allowed")
		return
	case *pg.ColumnRef:
		var names []string
		for _, f := range x.Fields {
			switch {
			case f.GetAStar() != nil:
				a.out.star = true
			case f.GetString_() != nil:
				names = append(names, f.GetString_().Sval)
			}
		}
		a.out.columns = append(a.out.columns, names)
		return
	case *pg.JoinExpr:
		if x.IsNatural {
			a.out.natural = true
		}
		for _, u := range x.UsingClause {
			if s := u.GetString_(); s != nil {
				a.out.using = append(a.out.using, s.Sval)
			}
		}
	case *pg.ParamRef:
		a.out.params = max(a.out.params, int(x.Number))
	case *pg.A_Expr:
		if x.Kind == pg.A_Expr_Kind_AEXPR_OP && len(x.Name) == 1 && x.Name[0].GetString_().GetSval() == "=" {
			if pc, ok := comparedParam(x.Lexpr, x.Rexpr); ok {
				a.out.compared = append(a.out.compared, pc)
			} else if pc, ok := comparedParam(x.Rexpr, x.Lexpr); ok {
				a.out.compared = append(a.out.compared, pc)
			}
		}
	case *pg.InsertStmt, *pg.UpdateStmt, *pg.DeleteStmt, *pg.MergeStmt:
		a.fail(CodeNotSelect, "a data-modifying statement inside the query")
		return
	}
	// Fields in declaration order: protoreflect's Range order is
	// deliberately unspecified, and the table list must be deterministic.
	fds := m.Descriptor().Fields()
	for i := 0; i < fds.Len() && a.err == nil; i++ {
		fd := fds.Get(i)
		if string(fd.Name()) == skip || fd.Kind() != protoreflect.MessageKind || !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		if fd.IsList() {
			l := v.List()
			for j := 0; j < l.Len(); j++ {
				a.walk(l.Get(j).Message(), env)
			}
		} else {
			a.walk(v.Message(), env)
		}
	}
}

// comparedParam reads col = param, either side under casts.
func comparedParam(col, param *pg.Node) (paramColumn, bool) {
	uncast := func(n *pg.Node) *pg.Node {
		for n.GetTypeCast() != nil {
			n = n.GetTypeCast().Arg
		}
		return n
	}
	c, p := uncast(col).GetColumnRef(), uncast(param).GetParamRef()
	if c == nil || p == nil {
		return paramColumn{}, false
	}
	var names []string
	for _, f := range c.Fields {
		if f.GetString_() == nil {
			return paramColumn{}, false
		}
		names = append(names, f.GetString_().Sval)
	}
	return paramColumn{param: int(p.Number), names: names}, true
}

// with checks a WITH clause, walks its CTE bodies in their scopes and
// returns the scope of the statement body.
func (a *analyzer) with(w *pg.WithClause, env *cteScope) *cteScope {
	if w.Recursive && !a.recursive {
		a.fail(CodeRecursive, "WITH RECURSIVE is not allowed (set allow_recursive in the curated file)")
		return env
	}
	scope := &cteScope{parent: env, names: map[string]bool{}, pending: map[string]bool{}}
	var ctes []*pg.CommonTableExpr
	for _, n := range w.Ctes {
		c := n.GetCommonTableExpr()
		if c == nil {
			a.fail(CodeParse, "an unexpected WITH element")
			return env
		}
		ctes = append(ctes, c)
		if w.Recursive {
			scope.names[c.Ctename] = true
		} else {
			scope.pending[c.Ctename] = true
		}
	}
	for _, c := range ctes {
		if c.Ctequery.GetSelectStmt() == nil {
			a.fail(CodeNotSelect, "WITH %s holds a data-modifying statement", c.Ctename)
			return env
		}
		a.walk(c.Ctequery.ProtoReflect(), scope)
		if !w.Recursive {
			delete(scope.pending, c.Ctename)
			scope.names[c.Ctename] = true
		}
	}
	return scope
}

func (a *analyzer) rangeVar(r *pg.RangeVar, env *cteScope) {
	if r.Catalogname != "" {
		a.fail(CodeTable, "three-part table names are not allowed")
		return
	}
	if r.Schemaname == "" {
		switch env.lookup(r.Relname) {
		case 1:
			return // a CTE
		case -1:
			a.fail(CodeTable, "%q names a CTE that is not in scope there, or differs from it only in case", r.Relname)
			return
		}
	}
	ref := tableRef{schema: r.Schemaname, name: r.Relname, loc: int(r.Location), only: !r.Inh}
	if r.Alias != nil {
		ref.alias, ref.hasAlias = r.Alias.Aliasname, true
	}
	a.out.tables = append(a.out.tables, ref)
}

func (a *analyzer) funcCall(f *pg.FuncCall) {
	var parts []string
	for _, n := range f.Funcname {
		if s := n.GetString_(); s != nil {
			parts = append(parts, s.Sval)
		}
	}
	name := ""
	switch {
	case len(parts) == 1:
		name = parts[0]
	case len(parts) == 2 && parts[0] == "pg_catalog":
		name = parts[1] // SQL-standard syntax: EXTRACT, SUBSTRING … FROM, TRIM, POSITION
		if strings.EqualFold(name, "btrim") {
			// TRIM(x) as PostgreSQL's parser writes it: the query says
			// trim, which every dialect's list judges
			name = "trim"
		}
	default:
		a.fail(CodeFunction, "function %s is not allowed (schema-qualified)", strings.Join(parts, "."))
		return
	}
	if !functionAllowed(a.dialect, strings.ToLower(name)) {
		a.fail(CodeFunction, "function %s is not on the %s allow-list", name, a.dialect)
	}
}
