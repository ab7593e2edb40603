package validate

import (
	"fmt"
	. "github.com/nl2sql/nl2sql/planast"
	"slices"
	"strings"
)

// Join fan-out. Joining a table to one that refers to it by a foreign key
// (Orders to Order Details) repeats each of its rows once per referring
// row, so a SUM, AVG or plain COUNT over the repeated table's columns
// counts each value several times: SUM(o.Freight) over Orders joined to
// Order Details is about three times the freight. The plan is valid and
// may be meant, so it is a warning, never a refusal; it names the
// aggregate, the repeated table and the fix. MIN, MAX and DISTINCT
// aggregates are unaffected and COUNT(*) usually counts the joined rows on
// purpose: neither is warned about, nor is an aggregate of a value of each
// joined row (SUM(il.Quantity * t.UnitPrice): a column of a source whose
// rows do not repeat makes the argument one value per joined row). A join no foreign key declares repeats
// rows the same way when the profile saw its key columns on one side hold
// a value on several rows (ColumnInfo.Repeats). A join inside a derived
// table or a CTE that does not aggregate repeats rows the same for an
// aggregate outside it of a column it passes through (derivedFanout).
// A join condition's equalities on further columns of a side are part of
// its key (fanoutkey.go): fx_rates joined on currency with its rate_month
// pinned to the invoice's month meets one rate per invoice.

// inflatable lists the aggregates a repeated row changes.
var inflatable = []string{"SUM", "AVG", "COUNT", "TOTAL"}

// fanoutWarnings returns the warnings of every query in root (subqueries
// and CTEs too), in plan order.
func fanoutWarnings(root *Query, cat Catalog) []string {
	return fanoutFound(root, cat, &fanoutRun{})
}

// fanoutRun is what probes of join keys counted (FanoutProbes), by join
// side, and the narrowed keys of the warnings given (used).
type fanoutRun struct {
	found map[joinSide]int64
	used  []pinnedKey
}

// fanoutFound is fanoutWarnings with what probes of join keys counted: a
// key a probe found unique repeats no row.
func fanoutFound(root *Query, cat Catalog, run *fanoutRun) []string {
	var out []string
	ctes := map[string]*Query{} // by name; a name defined twice: its first
	Inspect(root, func(n Node) bool {
		if q, ok := n.(*Query); ok && q != nil {
			for _, c := range q.With {
				if _, ok := ctes[c.Name]; !ok {
					ctes[c.Name] = c.Query
				}
			}
		}
		return true
	})
	Inspect(root, func(n Node) bool {
		if q, ok := n.(*Query); ok && q != nil {
			out = append(out, queryFanout(q, cat, run)...)
			out = append(out, derivedFanout(q, cat, ctes, run)...)
		}
		return true
	})
	return out
}

// derivedFanout warns of an aggregate of q over a column of a derived
// table or a CTE whose query joins without aggregating, where the column
// passes through from a source those joins repeat: WITH x AS (SELECT
// i.amount FROM invoices i JOIN legs l …) SELECT SUM(x.amount) FROM x
// doubles every two-leg invoice as the join written in one query does,
// and was not said of because the join and the sum are in two queries.
func derivedFanout(q *Query, cat Catalog, ctes map[string]*Query, run *fanoutRun) []string {
	derived := map[string]*Query{} // by the alias q reads it by
	for _, f := range q.From {
		inner := f.Subquery
		if inner == nil && f.Schema == "" {
			inner = ctes[f.Table]
		}
		if inner != nil && len(inner.Joins) > 0 && !inner.Distinct && len(inner.GroupBy) == 0 && !hasAggregate(inner) {
			derived[f.Alias] = inner
		}
	}
	if len(derived) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	repeatedIn := map[string]map[string]repeat{} // by the derived table's alias, worked out once
	eachInflatable(q, func(f *Func, name, path string) {
		for _, a := range f.Args {
			for _, c := range valueColumnsFirst(a) {
				inner := derived[c.Table]
				col := inner.PassedThrough(c.Column)
				if col == nil {
					continue
				}
				repeated, ok := repeatedIn[c.Table]
				if !ok {
					_, repeated = repeatedSources(inner, cat, run.found)
					repeatedIn[c.Table] = repeated
				}
				rp, hit := repeated[col.Table]
				key := name + "\x00" + c.Table + "\x00" + c.Column
				if !hit || seen[key] {
					continue
				}
				seen[key] = true
				run.use(rp.key)
				out = append(out, path+": "+rp.said(fmt.Sprintf("%s(%s.%s)", name, c.Table, c.Column), c.Table))
				return
			}
		}
	})
	return out
}

// eachInflatable calls f for each aggregate of q's select and having
// (path names where) that a repeated row changes: SUM, AVG, COUNT of an
// argument, not DISTINCT; not inside subqueries or windows.
func eachInflatable(q *Query, f func(fn *Func, name, path string)) {
	check := func(e Expr, path string) {
		Inspect(e, func(n Node) bool {
			switch fn := n.(type) {
			case *Query, *Window:
				return false
			case *Func:
				name := strings.ToUpper(fn.Name)
				if fn.Distinct || len(fn.Args) == 0 || !slices.Contains(inflatable, name) {
					return true
				}
				if countsRows(fn.Args) {
					// SUM(CASE WHEN m.account_type = 'business' THEN 1 ELSE 0
					// END) counts the joined rows a condition holds for, as
					// COUNT(*) does, never a value of the repeated row
					return false
				}
				f(fn, name, path)
				return false
			}
			return true
		})
	}
	for i, it := range q.Select {
		check(it.Expr, fmt.Sprintf("select[%d]", i))
	}
	if q.Having != nil {
		check(q.Having, "having")
	}
}

// repeat says why a source's rows repeat: the table that refers to another
// by a foreign key (by), and the table it refers to (via), which is the
// repeated source's own table when the two are joined directly.
type repeat struct {
	table, by, via string
	undeclared     bool // no foreign key: the profile saw by's key repeat
	// key says what is known of a key a join condition's equalities
	// narrow; zero when the join has none.
	key pinnedKey
}

// edge is one join between two aliases, seen from from: many says that
// to refers to from by a foreign key, not one to one, so each from row
// meets several to rows.
type edge struct {
	to         string
	many       bool
	undeclared bool
	key        pinnedKey
}

func queryFanout(q *Query, cat Catalog, run *fanoutRun) []string {
	if len(q.Joins) == 0 {
		return nil
	}
	tables, repeated := repeatedSources(q, cat, run.found)
	if len(repeated) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	eachInflatable(q, func(f *Func, name, path string) {
		if perJoinedRow(f.Args, tables, repeated) {
			// SUM(il.Quantity * t.UnitPrice): a value of each joined
			// row, which counts once however often the track repeats
			return
		}
		for _, a := range f.Args {
			for _, c := range valueColumnsFirst(a) {
				rp, hit := repeated[c.Table]
				key := name + "\x00" + c.Table + "\x00" + c.Column
				if !hit || seen[key] {
					continue
				}
				seen[key] = true // one warning per aggregate, of its first repeated column
				what := fmt.Sprintf("%s(%s.%s)", name, c.Table, c.Column)
				if a != Expr(c) {
					// AVG(p.amount / s.mrr) is not AVG(s.mrr)
					what = fmt.Sprintf("%s of an expression of %s.%s", name, c.Table, c.Column)
				}
				run.use(rp.key)
				out = append(out, path+": "+rp.said(what, ""))
				return
			}
		}
	})
	return out
}

// said is the warning of what (an aggregate of a column of the repeated
// source), whose rows repeat inside the derived table in ("" when the
// join is the aggregate's own query).
func (rp repeat) said(what, in string) string {
	why := fmt.Sprintf("%s refers to %s by a foreign key", rp.by, rp.via)
	if rp.undeclared {
		why = fmt.Sprintf("several %s rows share one join key value, as the profile saw", rp.by)
	}
	why += rp.key.said(rp.by)
	where := ""
	if in != "" {
		where = " inside " + in
	}
	return fmt.Sprintf("%s counts each %s row once per joined %s row%s (%s), so the figure is inflated unless that is meant; aggregate %s alone in a subquery (or a CTE) and join its result, or test %s with exists",
		what, rp.table, rp.by, where, why, rp.table, rp.by)
}

// repeatedSources are q's stored sources by alias and, of those, the ones
// whose rows its joins repeat.
func repeatedSources(q *Query, cat Catalog, found map[joinSide]int64) (map[string]*TableInfo, map[string]repeat) {
	tables := map[string]*TableInfo{}
	for _, f := range q.From {
		if f.Table == "" {
			continue
		}
		if t, ok := cat.LookupTable(f.Schema, f.Table); ok {
			tables[f.Alias] = t
		}
	}
	edges := map[string][]edge{}
	for ji, j := range q.Joins {
		l, r := tables[j.Left], tables[j.Right]
		if l == nil || r == nil {
			continue
		}
		// each side's key: its on-pair columns and the columns the
		// condition's equalities pin (to the other side or a literal)
		rKey, lKey := joinKey(&j, true), joinKey(&j, false)
		rPin, lPin := pinnedBy(j.Condition, j.Right), pinnedBy(j.Condition, j.Left)
		rMany, lMany, declared := false, false, false
		for _, p := range j.On {
			rMany = rMany || fkBetween(r, l, p.RightColumn, p.LeftColumn) && !keyCovers(r, rKey)
			lMany = lMany || fkBetween(l, r, p.LeftColumn, p.RightColumn) && !keyCovers(l, lKey)
			declared = declared || fkBetween(r, l, p.RightColumn, p.LeftColumn) || fkBetween(l, r, p.LeftColumn, p.RightColumn)
		}
		if !declared && len(j.On) > 0 {
			// no key says how the rows relate: the profile does, when every
			// column of a side's key holds some value on several rows (one
			// unique column makes the side's combination unique)
			rMany, lMany = !keyCovers(r, rKey), !keyCovers(l, lKey)
			for _, c := range rKey {
				rMany = rMany && repeats(r, c)
			}
			for _, c := range lKey {
				lMany = lMany && repeats(l, c)
			}
		}
		rk := sideKey(q, ji, true, rPin, rKey, rMany, found)
		lk := sideKey(q, ji, false, lPin, lKey, lMany, found)
		rMany, lMany = rMany && !rk.unique(), lMany && !lk.unique()
		edges[j.Left] = append(edges[j.Left], edge{j.Right, rMany, !declared, rk})
		edges[j.Right] = append(edges[j.Right], edge{j.Left, lMany, !declared, lk})
	}
	// A source's rows repeat when, walking the joins away from it, some
	// join meets several rows per row: the rows joined directly to it
	// (Invoice to its lines) or further on (payments to orders to order
	// items: each payment once per item of its order).
	repeated := map[string]repeat{}
	for alias, t := range tables {
		seen := map[string]bool{alias: true}
		queue := []string{alias}
		for len(queue) > 0 && repeated[alias] == (repeat{}) {
			u := queue[0]
			queue = queue[1:]
			for _, e := range edges[u] {
				if seen[e.to] {
					continue
				}
				seen[e.to] = true
				if e.many {
					repeated[alias] = repeat{t.Name, tables[e.to].Name, tables[u].Name, e.undeclared, e.key}
					break
				}
				queue = append(queue, e.to)
			}
		}
	}
	return tables, repeated
}

// perJoinedRow reports whether args name a column of a source whose rows
// do not repeat: the aggregate then computes one value per joined row,
// which the repetition of the other sources' rows does not inflate.
func perJoinedRow(args []Expr, tables map[string]*TableInfo, repeated map[string]repeat) bool {
	grain := false
	for _, a := range args {
		Inspect(a, func(m Node) bool {
			if _, sub := m.(*Query); sub {
				return false
			}
			if c, ok := m.(*Column); ok && tables[c.Table] != nil && repeated[c.Table] == (repeat{}) {
				grain = true
			}
			return !grain
		})
	}
	return grain
}

// repeats reports whether t's column col holds some value on several rows
// (ColumnInfo.Repeats).
func repeats(t *TableInfo, col string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return c.Repeats
		}
	}
	return false
}

// keyCovers reports whether key holds every column of one of t's keys,
// its primary key or a unique one: each row of the other side meets at
// most one t row, so nothing repeats.
func keyCovers(t *TableInfo, key []string) bool {
	return slices.ContainsFunc(t.Keys(), func(k []string) bool {
		for _, col := range k {
			if !slices.ContainsFunc(key, func(c string) bool { return strings.EqualFold(c, col) }) {
				return false
			}
		}
		return true
	})
}

// valueColumnsFirst lists the columns of e outside its subqueries, those
// whose values the expression yields before those that only decide which
// value (a CASE's conditions and operand): SUM(CASE WHEN p.currency = 'USD'
// THEN p.price END) adds prices, and a warning naming p.currency sent the
// reader to the wrong column.
func valueColumnsFirst(e Expr) []*Column {
	values, conds := splitColumns(e)
	return append(values, conds...)
}

// countsRows reports whether no argument yields a column's value: each
// is constants chosen by conditions (CASE WHEN … THEN 1 ELSE 0 END).
func countsRows(args []Expr) bool {
	for _, a := range args {
		if values, _ := splitColumns(a); len(values) > 0 {
			return false
		}
	}
	return true
}

// splitColumns is valueColumnsFirst's two lists: the columns whose
// values e yields, and those that only decide which.
func splitColumns(e Expr) (values, conds []*Column) {
	var walk func(e Expr, cond bool)
	walk = func(e Expr, cond bool) {
		Inspect(e, func(n Node) bool {
			switch x := n.(type) {
			case *Query:
				return false
			case *Case:
				if x.Operand != nil {
					walk(x.Operand, true)
				}
				for _, w := range x.Whens {
					walk(w.When, true)
					walk(w.Then, cond)
				}
				if x.Else != nil {
					walk(x.Else, cond)
				}
				return false
			case *Column:
				if cond {
					conds = append(conds, x)
				} else {
					values = append(values, x)
				}
			}
			return true
		})
	}
	walk(e, false)
	return values, conds
}
