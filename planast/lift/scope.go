package lift

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/planast"
)

// column is one column a source offers.
type column struct {
	name string       // exact name (the catalog's, or the subquery's output alias)
	typ  planast.Type // portable type
	// affinity is true for a stored column or an output column that is one
	// (or a CAST): SQLite converts a literal compared with it to its type.
	affinity bool
	// strf is the strftime format of an output column lifted from one
	// (see strftime), "" otherwise.
	strf string
	// zoned marks a timestamp with time zone (see lifter.zoned).
	zoned bool
}

// source is one FROM item in scope.
type source struct {
	sqlName string // the name SQL refers to it by: its alias, else the table's name
	alias   string // the plan alias
	table   *planast.TableInfo
	cols    []column
	// using holds the lower-cased columns a USING join merged into an
	// earlier source: an unqualified reference resolves to the earlier one.
	using map[string]bool
}

func (s *source) column(name string) (column, bool) {
	for _, c := range s.cols {
		if c.name == name {
			return c, true
		}
	}
	var hit column
	n := 0
	for _, c := range s.cols {
		if strings.EqualFold(c.name, name) {
			hit, n = c, n+1
		}
	}
	return hit, n == 1
}

// outItem is one output column of the SELECT being lifted, for references
// by alias (ORDER BY, and in SQLite also WHERE, GROUP BY and HAVING).
type outItem struct {
	sqlName string // the name SQL gives the column
	alias   string // the plan alias
	expr    planast.Expr
}

// scope is the name environment of one SELECT.
type scope struct {
	parent  *scope
	sources []*source
	items   []outItem // set once the select list is lifted
	env     *cteEnv
	// clause is the clause being lifted: "select", "where", "group_by",
	// "having", "order_by", "join".
	clause string
}

// cteEnv holds the CTEs visible at a point, innermost first.
type cteEnv struct {
	parent *cteEnv
	defs   map[string]*cteDef // by lower-cased name
}

type cteDef struct {
	name string
	cols []column
}

func (e *cteEnv) lookup(name string) *cteDef {
	for c := e; c != nil; c = c.parent {
		if d, ok := c.defs[strings.ToLower(name)]; ok {
			return d
		}
	}
	return nil
}

// findSource finds the source SQL calls name, innermost scope first.
func (sc *scope) findSource(name string) *source {
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.sources {
			if sameName(src.sqlName, name) {
				return src
			}
		}
	}
	return nil
}

// aliasesAllowed reports whether a bare name in the current clause may
// name an output column: SQLite allows it in WHERE, GROUP BY, HAVING and
// ORDER BY; PostgreSQL in GROUP BY and ORDER BY.
func (l *lifter) aliasesAllowed(sc *scope) bool {
	switch sc.clause {
	case "order_by", "group_by":
		return true
	case "where", "having":
		return l.sqlite()
	}
	return false
}

// columnRef lifts a column reference. A single double-quoted name that
// names no column in scope (nor an output alias where one may be used) is
// SQLite's string literal.
func (l *lifter) columnRef(c *pg.ColumnRef, sc *scope) planast.Expr {
	names := make([]string, 0, len(c.Fields))
	for _, f := range c.Fields {
		if f.GetAStar() != nil {
			l.unsupported(c.Location, "* outside the select list and COUNT(*)")
		}
		names = append(names, f.GetString_().GetSval())
	}
	if raw := l.src.IdentChain(int(c.Location), len(names)); raw != nil {
		names = raw
	}
	switch len(names) {
	case 1:
		return l.bareName(names[0], c.Location, sc)
	case 2:
		src := sc.findSource(names[0])
		if src == nil {
			l.fail(c.Location, "no table or alias %q in scope", names[0])
		}
		col, ok := src.column(names[1])
		if !ok {
			l.fail(c.Location, "%q has no column %q", names[0], names[1])
		}
		return &planast.Column{Table: src.alias, Column: col.name}
	}
	l.unsupported(c.Location, "a column reference with %d parts", len(names))
	return nil
}

// bareName resolves an unqualified name as SQLite (and PostgreSQL) do:
// the columns of the innermost SELECT's sources, then its output aliases
// where the clause allows them, then the enclosing SELECTs' sources.
func (l *lifter) bareName(name string, pos int32, sc *scope) planast.Expr {
	first := true
	for s := sc; s != nil; s = s.parent {
		var hits []*source
		var hit column
		for _, src := range s.sources {
			if col, ok := src.column(name); ok && !src.using[strings.ToLower(col.name)] {
				hits = append(hits, src)
				hit = col
			}
		}
		if len(hits) > 1 {
			l.fail(pos, "column %q is ambiguous (in %q and %q)", name, hits[0].sqlName, hits[1].sqlName)
		}
		if len(hits) == 1 {
			return &planast.Column{Table: hits[0].alias, Column: hit.name}
		}
		if first && l.aliasesAllowed(sc) {
			for _, it := range s.items {
				if sameName(it.sqlName, name) {
					return l.aliasRef(it, pos, sc)
				}
			}
		}
		first = false
	}
	if l.src.DoubleQuoted(int(pos)) && l.sqlite() {
		return &planast.Literal{Type: planast.TString, Text: name}
	}
	l.fail(pos, "no column %q in scope", name)
	return nil
}

// aliasRef is a reference to an output column by a name inside an
// expression (a bare ORDER BY name is resolved by orderName): the aliased
// expression itself.
func (l *lifter) aliasRef(it outItem, pos int32, sc *scope) planast.Expr {
	if planast.ContainsWindow(it.expr) || sc.clause == "where" && planast.ContainsAggregate(it.expr) {
		l.unsupported(pos, "a reference to an aggregate or window output column in %s", sc.clause)
	}
	return it.expr
}
