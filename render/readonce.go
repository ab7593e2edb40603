package render

import (
	"slices"

	"github.com/nl2sql/nl2sql/planast"
)

// A SQLite column read as its type (ReadAs: a DATETIME column holding
// Unix times beside ISO text, an INTEGER one holding 'n/a') is a CASE of
// a kilobyte or more for a timestamp, and a plan names its columns many
// times: an average of the hours between two such columns and their count
// came to 16 kB of SQL, 34 kB with julianday, which no one could review.
// The table whose columns a query reads so is read through a derived
// table that reads each once, beside the columns as stored:
//
//	FROM (SELECT *, <ReadAs of "shipped_at"> AS "shipped_at::timestamp" FROM "orders") AS "o"
//
// and every reading names "o"."shipped_at::timestamp". SQLite flattens
// such a subquery into the query, so it costs nothing and the table's
// indexes serve the columns as stored; the column as stored stays for
// the cast to text, which shows the values the type cannot read.

// readName is the derived table's name of column c read as type t.
func readName(c string, t planast.Type) string { return c + "::" + string(t) }

// readKey identifies a column read as a type within an alias: through
// ReadAs, or by the cast of text (text).
type readKey struct {
	column string
	as     planast.Type
	text   bool
}

// read is a column its alias's derived table reads: its key and the
// reference (for what else its rendering needs, as the text of an enum).
type read struct {
	key readKey
	ref *planast.Column
}

// readsByAlias returns, for each base table of q's FROM, the columns a
// reference of q reads as their type (ReadAs, on SQLite: elsewhere it is
// the column itself) or casts from text (in the order first named). A reference
// counts where it sees q's alias: in q's clauses and in the subqueries
// within them that do not bind the alias again, but not in q's derived
// tables or set operations, which cannot see it.
func (w *writer) readsByAlias(q *planast.Query) map[string][]read {
	if !w.readsAny(q) {
		return nil // most plans: nothing to gather, nothing allocated
	}
	var out map[string][]read
	for _, f := range q.From {
		if f.Subquery != nil {
			continue
		}
		var keys []read
		add := func(k readKey, ref *planast.Column) {
			if ref.Table == f.Alias && !slices.ContainsFunc(keys, func(r read) bool { return r.key == k }) {
				keys = append(keys, read{k, ref})
			}
		}
		visit := func(n planast.Node) bool {
			if sub, ok := n.(*planast.Query); ok && binds(sub, f.Alias) {
				return false // its own alias; a set operation's branch is no subquery
			}
			if k, ref, ok := w.readOf(n); ok {
				add(k, ref)
			}
			return true
		}
		for _, e := range coreExprs(q) {
			planast.Inspect(e, visit)
		}
		if len(keys) > 0 {
			if out == nil {
				out = map[string][]read{}
			}
			out[f.Alias] = keys
		}
	}
	return out
}

// readsAny reports whether q, subqueries included, reads a column as its
// type or casts one from text.
func (w *writer) readsAny(q *planast.Query) bool {
	found := false
	planast.Inspect(q, func(n planast.Node) bool {
		if !found {
			_, _, found = w.readOf(n)
		}
		return !found
	})
	return found
}

// readOf is the reading node n asks of a column: a column read as its
// type (ReadAs, on SQLite: elsewhere it is the column itself), or a
// column cast from text; false for any other node.
func (w *writer) readOf(n planast.Node) (readKey, *planast.Column, bool) {
	switch n := n.(type) {
	case *planast.Column:
		if n.ReadAs != "" && w.d.Name() == "sqlite" {
			return readKey{n.Column, n.ReadAs, false}, n, true
		}
	case *planast.Cast:
		if ref, ok := n.Expr.(*planast.Column); ok && n.FromText {
			return readKey{ref.Column, planast.Type(n.Type), true}, ref, true
		}
	}
	return readKey{}, nil, false
}

// binds reports whether q's FROM names alias.
func binds(q *planast.Query, alias string) bool {
	return slices.ContainsFunc(q.From, func(f planast.From) bool { return f.Alias == alias })
}

// coreExprs are the expressions of q's own SELECT: its items, join
// conditions, WHERE, GROUP BY, HAVING, QUALIFY and ORDER BY.
func coreExprs(q *planast.Query) []planast.Expr {
	var out []planast.Expr
	for _, s := range q.Select {
		out = append(out, s.Expr)
	}
	for _, j := range q.Joins {
		out = append(out, j.Condition)
	}
	out = append(out, q.Where)
	out = append(out, q.GroupBy...)
	out = append(out, q.Having, q.Qualify)
	for _, o := range q.OrderBy {
		out = append(out, o.Expr)
	}
	return slices.DeleteFunc(out, func(e planast.Expr) bool { return e == nil })
}

// scopeReads sets w.reads to what q's core sees: the readings of the
// enclosing queries (base) but for the aliases q binds again, and q's own.
func (w *writer) scopeReads(q *planast.Query, base map[string][]read) {
	own := w.readsByAlias(q)
	if own == nil && base == nil {
		w.reads = nil
		return
	}
	m := map[string][]read{}
	for a, k := range base {
		if !binds(q, a) {
			m[a] = k
		}
	}
	for a, k := range own {
		m[a] = k
	}
	w.reads = m
}

// readColumn is the name of column e read as e.ReadAs (text false) or
// cast from text to as (text true) in its alias's derived table, when
// the derived table reads it so (readsByAlias), else "".
func (w *writer) readColumn(e *planast.Column, as planast.Type, text bool) string {
	k := readKey{e.Column, as, text}
	if as == "" || e.Table == "" || !slices.ContainsFunc(w.reads[e.Table], func(r read) bool { return r.key == k }) {
		return ""
	}
	return QuoteIdent(e.Table) + "." + QuoteIdent(readName(e.Column, as))
}

// readTable is the derived table that reads keys of table (quoted, with
// its schema) once each.
func (w *writer) readTable(table string, keys []read) string {
	s := "(SELECT *"
	for _, r := range keys {
		ref := *r.ref
		ref.Table, ref.ReadAs = "", "" // the table's own column, as stored
		col := w.exprS(&ref)
		if r.key.text {
			col = textCast(w.d, col, planast.CastType(r.key.as))
		} else {
			col = ReadAs(w.d, col, r.key.as)
		}
		s += ", " + col + " AS " + QuoteIdent(readName(r.key.column, r.key.as))
	}
	return s + " FROM " + table + ")"
}
