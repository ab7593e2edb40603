package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Options tune SQL.
type Options struct {
	// MaxRows caps the top-level LIMIT: the rendered LIMIT is the smaller of
	// the plan's limit and MaxRows. Zero means no cap (the plan's own limit).
	MaxRows int64
	// NoTotalOrder skips the tie-breaker ORDER BY on every selected column.
	// Only combination steps that re-sort anyway set it.
	NoTotalOrder bool
	// SortAllRows keeps the total sort ahead of the LIMIT for a plan with no
	// order_by, instead of taking the first rows and sorting only those (see
	// firstRowsLimit). For inputs known to be small (duckcompute's loaded
	// results), where reading every row costs nothing and the rows kept are
	// then the smallest by every output, whatever order they were stored in.
	SortAllRows bool
	// OneDecimalScale says every decimal the plan reads has one type
	// (duckcompute loads them at one scale): branches of a result need no
	// wider common type (planast.Case.Decimals), which would show them at
	// ten places.
	OneDecimalScale bool
}

// Error is returned when a plan cannot be rendered. A validated plan never
// produces one: the validator refuses everything a renderer could (see the
// parity test).
type Error struct {
	Dialect string
	Msg     string
}

func (e *Error) Error() string { return "render " + e.Dialect + ": " + e.Msg }

// SQL renders a validated plan as one SELECT statement in dialect d.
// Identifiers are always quoted, string literals escaped, the top-level
// LIMIT capped by opts.MaxRows, and the row order made total: the plan's
// ORDER BY, then every output column by position. Run it only on plans that
// passed validate.Plan, which canonicalises names.
func SQL(q *planast.Query, d Dialect, opts Options) (sql string, err error) {
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			sql, err = "", re
		}
	}()
	w := &writer{d: d, oneScale: opts.OneDecimalScale, scale: widestScale(q)}
	w.query(q, opts, true)
	return w.b.String(), nil
}

type writer struct {
	d Dialect
	b strings.Builder
	// oneScale: Options.OneDecimalScale
	oneScale bool
	// scale is the most digits after the point a decimal the plan reads
	// has (widestScale): what a result of several decimals keeps.
	scale int
	// lookup is a column compared with a value of its own engine type
	// (uuidLookup), written as it is so the database's index serves it.
	lookup *planast.Column
	// grouped: the expression being written is a grouped query's output
	// (bindable), but inside an aggregate's argument
	grouped bool
	// selectedKeys are the planast.Key of the grouped query's keys that
	// are select items (selectedGroupKeys)
	selectedKeys map[string]bool
	// reads are the columns each alias in scope reads as their type
	// through its derived table (readonce.go)
	reads map[string][]read
}

// sub is a writer for a part of w's statement, rendered apart.
func (w *writer) sub() *writer {
	return &writer{d: w.d, oneScale: w.oneScale, scale: w.scale, lookup: w.lookup, grouped: w.grouped, selectedKeys: w.selectedKeys, reads: w.reads}
}

// widestScale is the most digits after the point of a decimal column
// (its declared scale, planast.Column.Scale) or decimal literal that q
// reads anywhere.
func widestScale(q *planast.Query) int {
	n := 0
	planast.Inspect(q, func(x planast.Node) bool {
		switch x := x.(type) {
		case *planast.Column:
			n = max(n, x.Scale)
		case *planast.Literal:
			if x.Type == planast.TDecimal {
				if _, frac, ok := strings.Cut(x.Text, "."); ok {
					frac, _, _ = strings.Cut(strings.ToLower(frac), "e")
					n = max(n, len(frac))
				}
			}
		}
		return true
	})
	return n
}

func (w *writer) fail(format string, args ...any) {
	panic(&Error{Dialect: w.d.Name(), Msg: fmt.Sprintf(format, args...)})
}

func (w *writer) str(s string) { w.b.WriteString(s) }

// QuoteIdent quotes an identifier the SQL-standard way, which all three
// dialects share: wrapped in double quotes with embedded quotes doubled.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteString quotes a string literal: single quotes, embedded ones doubled.
// PostgreSQL sessions run with standard_conforming_strings=on (the adapter
// sets it), so backslashes carry no meaning in any dialect.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (w *writer) query(q *planast.Query, opts Options, top bool) {
	base := w.reads // what the enclosing query's core sees
	w.with(q)
	w.reads = base
	if q.Qualify != nil || q.WithTies {
		w.wrapped(q, opts, top)
		return
	}
	if n, ok := firstRowsLimit(q, opts, top); ok {
		w.str("SELECT * FROM (")
		w.core(q, nil, base) // no set operations (firstRowsLimit)
		w.str("\nLIMIT " + strconv.FormatInt(n, 10))
		if w.d.Name() == "sqlite" {
			// SQLite flattens a subquery with a LIMIT into an outer query
			// with an ORDER BY, which sorts every row again; one with an
			// OFFSET it never flattens (its flattening rule 14).
			w.str(" OFFSET 0")
		}
		w.str(") AS " + QuoteIdent("first_rows"))
		w.orderLimit(q, nil, nil, Options{}, true)
		return
	}
	paren := len(q.SetOps) > 1 && w.d.ParenthesizeCompound()
	for i := 0; paren && i < len(q.SetOps)-1; i++ {
		w.str("(")
	}
	w.core(q, q.Decimals, base)
	for i, s := range q.SetOps {
		if paren && i > 0 {
			w.str(")")
		}
		switch s.Op {
		case planast.Union:
			w.str("\nUNION\n")
		case planast.UnionAll:
			w.str("\nUNION ALL\n")
		case planast.Intersect:
			w.str("\nINTERSECT\n")
		case planast.Except:
			w.str("\nEXCEPT\n")
		default:
			w.fail("unknown set operation %q", s.Op)
		}
		w.core(s.Query, q.Decimals, base)
	}
	var keys []string
	for _, o := range q.OrderBy {
		keys = append(keys, orderKey(w.exprS(o.Expr), o))
	}
	w.orderLimit(q, keys, q.Limit, opts, top)
}

func (w *writer) with(q *planast.Query) {
	if len(q.With) == 0 {
		return
	}
	w.str("WITH ")
	for i, c := range q.With {
		if i > 0 {
			w.str(", ")
		}
		w.str(QuoteIdent(c.Name) + " AS (")
		w.query(c.Query, Options{}, false)
		w.str(")")
	}
	w.str("\n")
}

// orderKey renders one ORDER BY key: x, its direction and where NULLs go
// (last unless the plan says first, on every engine).
func orderKey(x string, o planast.OrderItem) string {
	k := x
	if o.Direction == planast.Desc {
		k += " DESC"
	} else {
		k += " ASC"
	}
	if o.Nulls == planast.NullsFirst {
		k += " NULLS FIRST"
	} else {
		k += " NULLS LAST"
	}
	return k
}

// orderLimit writes the ORDER BY keys, the tie-breakers that make the
// order total, and LIMIT (limit, capped by opts.MaxRows at the top) and
// OFFSET.
func (w *writer) orderLimit(q *planast.Query, keys []string, limit *int64, opts Options, top bool) {
	// the top level, and any subquery whose LIMIT or OFFSET picks rows, is
	// ordered totally so that the same rows come back on every run and engine
	if (top && !opts.NoTotalOrder) || (!top && (q.Limit != nil || q.Offset != nil)) {
		covered := orderedOutputs(q)
		for i := range q.Select {
			if c, ok := q.Select[i].Expr.(*planast.Column); ok && c.Unordered {
				continue // a type without an ordering (PostgreSQL json) cannot break ties
			}
			if !covered[i] { // an output already ordered by adds nothing as a tie-breaker
				keys = append(keys, strconv.Itoa(i+1)+" ASC NULLS LAST")
			}
		}
	}
	if len(keys) > 0 {
		w.str("\nORDER BY " + strings.Join(keys, ", "))
	}
	if top && opts.MaxRows > 0 && (limit == nil || *limit > opts.MaxRows) {
		limit = &opts.MaxRows
	}
	if limit != nil {
		if *limit < 0 {
			w.fail("negative limit")
		}
		w.str("\nLIMIT " + strconv.FormatInt(*limit, 10))
	}
	if q.Offset != nil {
		if *q.Offset < 0 {
			w.fail("negative offset")
		}
		switch {
		case limit != nil:
			w.str(" OFFSET ")
		case w.d.Name() == "sqlite":
			w.str("\nLIMIT -1 OFFSET ") // SQLite has no OFFSET without LIMIT; -1 is no limit
		default:
			// not LIMIT 9223372036854775807: DuckDB (1.5) then returns no
			// rows from a correlated subquery with an offset
			w.str("\nOFFSET ")
		}
		w.str(strconv.FormatInt(*q.Offset, 10))
	}
}

// core writes q's SELECT; base are the readings of the enclosing
// queries' aliases (scopeReads).
func (w *writer) core(q *planast.Query, decimals []bool, base map[string][]read) {
	w.scopeReads(q, base)
	grouped, keys := groupedQuery(q), selectedGroupKeys(q)
	// the ORDER BY written after the core is of its output too
	defer func() { w.grouped, w.selectedKeys = grouped, keys }()
	w.grouped, w.selectedKeys = grouped, keys
	w.str("SELECT ")
	if q.Distinct {
		w.str("DISTINCT ")
	}
	for i, it := range q.Select {
		if i > 0 {
			w.str(", ")
		}
		w.str(w.widened(it.Expr, i < len(decimals) && decimals[i]))
		w.str(" AS " + QuoteIdent(it.Alias))
	}
	if len(q.From) == 0 { // a SELECT of constants and scalar subqueries
		if len(q.Joins) > 0 || len(q.GroupBy) > 0 || q.Having != nil {
			w.fail("joins, group by or having without a from")
		}
		if q.Where != nil {
			w.str("\nWHERE ")
			w.expr(q.Where)
		}
		return
	}
	w.grouped = false
	w.str("\nFROM ")
	w.source(q.From[0])
	byAlias := map[string]planast.From{}
	for _, f := range q.From {
		byAlias[f.Alias] = f
	}
	for _, j := range q.Joins {
		f, ok := byAlias[j.Right]
		if !ok {
			w.fail("join names unknown alias %q", j.Right)
		}
		switch j.Type {
		case planast.JoinInner, "":
			w.str("\nINNER JOIN ")
		case planast.JoinLeft:
			w.str("\nLEFT JOIN ")
		case planast.JoinRight:
			w.str("\nRIGHT JOIN ")
		case planast.JoinFull:
			w.str("\nFULL JOIN ")
		default:
			w.fail("unknown join type %q", j.Type)
		}
		w.source(f)
		w.str(" ON ")
		var conds []string
		for _, p := range j.On {
			if p.Left != nil && p.Right != nil {
				// keys read otherwise elsewhere (a uuid and a CTE's text
				// of one): compared as read, alike on both sides
				conds = append(conds, w.exprS(p.Left)+" = "+w.exprS(p.Right))
				continue
			}
			conds = append(conds, QuoteIdent(j.Left)+"."+QuoteIdent(p.LeftColumn)+" = "+QuoteIdent(j.Right)+"."+QuoteIdent(p.RightColumn))
		}
		if j.Condition != nil {
			conds = append(conds, "("+w.exprS(j.Condition)+")")
		}
		if len(conds) == 0 {
			w.fail("join without condition")
		}
		w.str(strings.Join(conds, " AND "))
	}
	if len(q.From) != len(q.Joins)+1 {
		w.fail("every from item after the first must be joined")
	}
	w.grouped = false // a subquery in FROM or a join left its own
	if q.Where != nil {
		w.str("\nWHERE ")
		w.expr(q.Where)
	}
	w.grouped, w.selectedKeys = grouped, keys
	if len(q.GroupBy) > 0 {
		w.str("\nGROUP BY ")
		var selected []string // the select items' SQL, rendered once when needed
		for i, g := range q.GroupBy {
			if i > 0 {
				w.str(", ")
			}
			gs := w.exprS(g)
			if len(gs) > longGroupKey {
				// a long key that is a select item is written as its
				// position, as ORDER BY writes its keys: a date read
				// from text is kilobytes, and the SQL carried it twice
				if selected == nil {
					for _, it := range q.Select {
						selected = append(selected, w.exprS(it.Expr))
					}
				}
				if k := slices.Index(selected, gs); k >= 0 {
					gs = strconv.Itoa(k + 1)
				}
			}
			w.str(gs)
		}
	}
	if q.Having != nil {
		w.str("\nHAVING ")
		w.expr(q.Having)
	}
}

// longGroupKey is the SQL length from which a GROUP BY key that is a
// select item is written as its position.
const longGroupKey = 200

func (w *writer) source(f planast.From) {
	if f.Subquery != nil {
		w.str("(")
		w.query(f.Subquery, Options{}, false)
		w.str(")")
	} else {
		if f.Table == "" {
			w.fail("from item without table")
		}
		table := QuoteIdent(f.Table)
		if f.Schema != "" {
			table = QuoteIdent(f.Schema) + "." + table
		}
		if keys := w.reads[f.Alias]; len(keys) > 0 {
			table = w.readTable(table, keys)
		}
		w.str(table)
	}
	w.str(" AS " + QuoteIdent(f.Alias))
}

// exprS renders e into a string.
// lower renders LOWER of the rendered x in the dialect (a case_insensitive
// like folds both sides by the same rule as the plan's LOWER).
func (w *writer) lower(x string) string {
	s, ok := w.d.Func("LOWER", []string{x})
	if !ok {
		w.fail("function LOWER has no rendering")
	}
	return s
}

func (w *writer) exprS(e planast.Expr) string {
	sub := w.sub()
	sub.expr(e)
	return sub.b.String()
}

func (w *writer) subquery(q *planast.Query) string {
	sub := w.sub()
	sub.query(q, Options{}, false)
	return "(" + sub.b.String() + ")"
}

// orderedOutputs marks the select items that an ORDER BY key already sorts
// on: a bare reference to the item's alias, or the item's own expression.
func orderedOutputs(q *planast.Query) map[int]bool {
	out := map[int]bool{}
	for _, o := range q.OrderBy {
		key, _ := json.Marshal(o.Expr)
		for i, it := range q.Select {
			if c, ok := o.Expr.(*planast.Column); ok && c.Table == "" && c.Column == it.Alias {
				out[i] = true
				continue
			}
			if b, _ := json.Marshal(it.Expr); string(b) == string(key) {
				out[i] = true
			}
		}
	}
	return out
}

// firstRowsLimit reports whether the top-level q takes its first rows
// before it sorts them, and the LIMIT it takes them with (the plan's limit
// or opts.MaxRows, the smaller): a plan with no order_by that only scans,
// joins and filters (no grouping, aggregate, window, DISTINCT, set
// operation, offset, CTE or derived table). Sorting such a plan totally
// and then limiting it reads its whole input (a 50M-row view ran into the
// timeout); limiting first lets the engine stop after n rows, and the
// tie-breaker ORDER BY then sorts only those. Which n rows come first is
// the engine's scan order, not the plan's: see "Row order and the row cap"
// in the package doc for why that is still the same on every run.
func firstRowsLimit(q *planast.Query, opts Options, top bool) (int64, bool) {
	if !top || opts.NoTotalOrder || opts.SortAllRows || len(q.OrderBy) > 0 || len(q.SetOps) > 0 || q.Distinct || len(q.GroupBy) > 0 ||
		q.Having != nil || q.Qualify != nil || q.WithTies || q.Offset != nil || len(q.With) > 0 || len(q.From) == 0 {
		return 0, false
	}
	for _, f := range q.From {
		if f.Subquery != nil {
			return 0, false
		}
	}
	for _, it := range q.Select {
		if groupsRows(it.Expr) {
			return 0, false
		}
	}
	switch {
	case q.Limit != nil && *q.Limit >= 0 && (opts.MaxRows <= 0 || *q.Limit <= opts.MaxRows):
		return *q.Limit, true
	case opts.MaxRows > 0 && (q.Limit == nil || *q.Limit >= 0):
		return opts.MaxRows, true
	}
	return 0, false
}

// groupsRows reports whether e holds an aggregate or a window function
// outside subqueries: an output that depends on rows other than its own.
func groupsRows(e planast.Expr) bool {
	found := false
	planast.Inspect(e, func(n planast.Node) bool {
		switch n := n.(type) {
		case *planast.Query:
			return false
		case *planast.Window:
			found = true
		case *planast.Func:
			if spec, ok := planast.LookupFunc(n.Name); ok && spec.Kind == planast.Aggregate {
				found = true
			}
		}
		return !found
	})
	return found
}

// SeveralRowsMessage is the text of the error a scalar subquery that
// returns more than one row raises on SQLite: PostgreSQL's own message,
// which DuckDB's begins with too.
const SeveralRowsMessage = "more than one row returned by a subquery used as an expression"

// oneRowSQLite renders the scalar subquery sub so that SQLite fails when it
// returns more than one row, as PostgreSQL and DuckDB do, where SQLite
// alone took the first row in its scan order and went on silently:
//
//	(SELECT * FROM (sub) GROUP BY NULL HAVING CASE WHEN COUNT(*) > 1 THEN json_extract('{}', '<message>') ELSE 1 END)
//
// The one group holds the subquery's rows; with one row its value is that
// row's (SQLite's bare column), with none there is no group and the value
// is NULL. The sub runs once. json_extract of a path that is no JSON path
// is SQLite's only built-in way to raise an error carrying a chosen text
// ("JSON path error near '<message>'"), so the shown SQL fails the same in
// a plain sqlite3, where a registered function would not even compile;
// GROUP BY NULL because a HAVING without GROUP BY needs SQLite 3.39. The
// bare column keeps the subquery's column affinity, so comparisons with it
// convert as before.
func oneRowSQLite(sub string) string {
	return "(SELECT * FROM " + sub + " GROUP BY NULL HAVING CASE WHEN COUNT(*) > 1 THEN json_extract('{}', " +
		QuoteString(SeveralRowsMessage) + ") ELSE 1 END)"
}

// atMostOneRow reports whether the query q, used as a scalar subquery,
// cannot return more than one row: a LIMIT of at most 1 (without ties), or
// an aggregate without GROUP BY or set operations. Such a subquery needs no
// row check.
func atMostOneRow(q *planast.Query) bool {
	if q.Limit != nil && *q.Limit <= 1 && !q.WithTies {
		return true
	}
	if len(q.GroupBy) > 0 || len(q.SetOps) > 0 {
		return false
	}
	for _, it := range q.Select {
		if planast.ContainsAggregate(it.Expr) {
			return true
		}
	}
	return false
}
