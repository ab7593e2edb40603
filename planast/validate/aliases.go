package validate

import (
	"fmt"
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// Output aliases in group_by and having. A column with no table that names
// no column of the query's own sources but a select item's alias means
// that item's expression; the validator substitutes a copy of it, so every
// engine gets the expression (PostgreSQL takes no output alias in HAVING).
// When the name is both a source column and the alias of another
// expression, group_by and having refuse it as ambiguous, but for a
// group_by alias of a rewrite of that very column (rewrites), which means
// the rewrite: engines disagree
// (PostgreSQL groups by the source column, SQLite reads the alias in
// HAVING), and a host that wrote the alias would otherwise get rows grouped
// by a column it never meant, with no sign of it.

// outputAlias returns the select item of q whose alias is name
// (case-insensitive), or nil.
func outputAlias(q *Query, name string) *SelectItem {
	for i := range q.Select {
		if q.Select[i].Alias != "" && strings.EqualFold(q.Select[i].Alias, name) {
			return &q.Select[i]
		}
	}
	return nil
}

// ownColumn reports whether a source of sc itself (not an outer scope) has
// the column name. A source whose table is unknown has no columns to
// tell: its own error says so, and taking it to hold every name made a
// group_by of an output alias a second, false ambiguity the user would
// "fix".
func ownColumn(sc *scope, name string) bool {
	for _, src := range sc.sources {
		if _, ok := src.rel.column(name); ok && !src.unknown {
			return true
		}
	}
	return false
}

// groupByAliases replaces each group_by item naming an output alias by the
// aliased expression.
func (v *validator) groupByAliases(q *Query, path string, sc *scope) {
	for i, g := range q.GroupBy {
		c, ok := g.(*Column)
		if !ok || c.Table != "" {
			continue
		}
		it := outputAlias(q, c.Column)
		if it == nil {
			continue
		}
		p := idx(join(path, "group_by"), i)
		if ownColumn(sc, c.Column) {
			switch {
			case namesColumn(it, c.Column, sc), rewrites(it, c.Column):
				// the alias's own column, qualified as the select item
				// has it: two joined tables that both hold the column
				// (p.plan_id, s.plan_id) leave the bare name ambiguous
				q.GroupBy[i] = cloneExpr(it.Expr)
			default:
				v.addHint(CodeAmbiguous, p, aliasClashHint(it, c.Column, sc), "%q is both an output alias and a column of a source", c.Column)
			}
			continue
		}
		switch {
		case hasAggregate(&Query{Select: []SelectItem{*it}}):
			v.add(CodeGrouping, p, "output column %q is an aggregate; group_by cannot use it: group by the columns it aggregates over, and filter on it in having", it.Alias)
		case ContainsWindow(it.Expr):
			v.add(CodeGrouping, p, "output column %q is a window function; group_by cannot use it", it.Alias)
		default:
			q.GroupBy[i] = cloneExpr(it.Expr)
		}
	}
}

// havingAliases replaces the output aliases the having condition names
// (outside subqueries) by the aliased expressions.
func (v *validator) havingAliases(q *Query, path string, sc *scope) {
	if q.Having == nil {
		return
	}
	top := map[*Column]bool{}
	Inspect(q.Having, func(n Node) bool {
		switch n := n.(type) {
		case *Query:
			return false
		case *Column:
			if n.Table == "" {
				top[n] = true
			}
		}
		return true
	})
	bad := false
	q.Having = MapExpr(q.Having, func(e Expr) Expr {
		c, ok := e.(*Column)
		if !ok || !top[c] {
			return e
		}
		it := outputAlias(q, c.Column)
		switch {
		case it == nil:
			return e
		case ownColumn(sc, c.Column):
			if namesColumn(it, c.Column, sc) {
				return cloneExpr(it.Expr) // the alias names the column itself, qualified
			}
			if !bad {
				v.addHint(CodeAmbiguous, join(path, "having"), aliasClashHint(it, c.Column, sc), "%q is both an output alias and a column of a source", c.Column)
			}
			bad = true
			return e
		case ContainsWindow(it.Expr):
			if !bad {
				v.add(CodeGrouping, join(path, "having"), "output column %q is a window function; filter on it with qualify, not having", it.Alias)
			}
			bad = true
			return e
		}
		return cloneExpr(it.Expr)
	})
}

// aliasClashHint says what to write for each meaning of name, the alias
// of the select item it and a column of a source of sc: the column
// qualified with each table alias that holds it, and the item's
// expression itself or another alias for it. Told only to "qualify it",
// a host guessed at which alias, or renamed the wrong thing.
func aliasClashHint(it *SelectItem, name string, sc *scope) string {
	var cols []string
	for _, src := range sc.sources {
		if col, ok := src.rel.column(name); ok && !src.unknown {
			b, err := JSON(&Column{Table: src.alias, Column: col.Name})
			if err == nil {
				cols = append(cols, string(b))
			}
		}
	}
	expr, err := JSON(it.Expr)
	if err != nil || len(cols) == 0 {
		return ""
	}
	return fmt.Sprintf("for the source column write %s; for the select item's value write its expression %s, or rename its alias %q to a name no source column has (%q) and use that",
		strings.Join(cols, " or "), expr, it.Alias, it.Alias+"_value")
}

// rewrites reports whether the select item it computes from the column
// name, and from no other, a value that is not an aggregate or a window
// (LOWER(TRIM(p.city)) AS city): grouping by the alias then means the
// rewritten value. Grouped by the raw column instead, the rewritten value
// would come back once per raw spelling ('lisbon' twice, from 'Lisbon'
// and 'lisbon '), which no one who wrote the rewrite wants.
func rewrites(it *SelectItem, name string) bool {
	if ContainsWindow(it.Expr) || hasAggregate(&Query{Select: []SelectItem{*it}}) {
		return false
	}
	only := true
	seen := false
	Inspect(it.Expr, func(n Node) bool {
		switch n := n.(type) {
		case *Query:
			only = false
			return false
		case *Column:
			if strings.EqualFold(n.Column, name) {
				seen = true
			} else {
				only = false
			}
		}
		return true
	})
	return seen && only
}

// namesColumn reports whether the select item it is the column name itself
// (SELECT c.Country AS country), so the alias and the column agree.
func namesColumn(it *SelectItem, name string, sc *scope) bool {
	col, isCol := it.Expr.(*Column)
	return isCol && strings.EqualFold(col.Column, name) && (col.Table == "" || sc.hasSource(col.Table))
}

func (s *scope) hasSource(alias string) bool {
	_, ok := s.find(alias)
	return ok
}

// windowAlias returns a window's partition_by or order_by item e, or, when
// e is a column with no table that names no column of the query's own
// sources but a select item's alias, a copy of that item's expression: no
// engine reads select aliases inside OVER (...), and a host that sorts a
// window by a computed column it named gets that column's order. An alias
// of another window stays as it is and is refused as a column not found.
func (v *validator) windowAlias(e Expr, path string, sc *scope) Expr {
	c, ok := e.(*Column)
	if !ok || c.Table != "" || ownColumn(sc, c.Column) {
		return e
	}
	it := outputAlias(&Query{Select: sc.selecting}, c.Column)
	if it == nil || ContainsWindow(it.Expr) {
		return e
	}
	return cloneExpr(it.Expr)
}
