package warnings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
)

// maxCurrencyHops bounds the declared foreign keys followed from an
// amount's table to the table holding its currency: payments → orders,
// or payment_lines → payments → orders. The second hop is taken only when
// the first reaches no currency column and one table alone holds one a
// hop further; two candidates there, or a third hop, and which currency
// the amount is in would be a guess the warning passes off as fact.
const maxCurrencyHops = 2

// currencyHop is one foreign key followed: from's rows each belong to
// one row of to.
type currencyHop struct {
	from, to *schema.Table
	fk       schema.ForeignKey
}

// currencyHolder is a table reached from an amount's table through hops
// whose column cur names a currency.
type currencyHolder struct {
	hops []currencyHop
	cur  *schema.Column
}

// currencyColumn is t's first text column named as a currency
// (currencyName), nil when it has none.
func currencyColumn(t *schema.Table) *schema.Column {
	for i := range t.Columns {
		if c := &t.Columns[i]; textual(c) && currencyName(c.Name) {
			return c
		}
	}
	return nil
}

// currencyHolders are the tables t's rows belong to through declared
// foreign keys that name a currency: every one a hop away, else the one
// table two hops away (maxCurrencyHops).
func currencyHolders(snap *schema.Snapshot, t *schema.Table) []currencyHolder {
	return holdersOf(snap, t, currencyColumn)
}

// holdersOf are the tables t's rows belong to through declared foreign
// keys that hold a column col finds (a currency, a time zone; cur is
// that column): every one a hop away, else the one table two hops away,
// as currencyHolders says.
func holdersOf(snap *schema.Snapshot, t *schema.Table, col func(*schema.Table) *schema.Column) []currencyHolder {
	seen := map[*schema.Table]bool{t: true}
	level := []currencyHolder{{}}
	from := []*schema.Table{t}
	for hop := range maxCurrencyHops {
		var next []currencyHolder
		var nextFrom []*schema.Table
		var found []currencyHolder
		for i, h := range level {
			for _, fk := range keysByNulls(from[i]) {
				p, ok := snap.Lookup(fk.RefSchema, fk.RefTable)
				if !ok || seen[p] || len(fk.Columns) == 0 || len(fk.Columns) != len(fk.RefColumns) {
					continue
				}
				seen[p] = true
				path := currencyHolder{hops: append(slices.Clone(h.hops), currencyHop{from[i], p, fk})}
				if cur := col(p); cur != nil {
					path.cur = cur
					found = append(found, path)
					continue
				}
				next, nextFrom = append(next, path), append(nextFrom, p)
			}
		}
		if len(found) > 0 {
			if hop > 0 && len(found) > 1 {
				return nil // two tables a hop further: no telling whose currency
			}
			return found
		}
		level, from = next, nextFrom
	}
	return nil
}

// heldCurrencies are the warnings of SUM or AVG f of amount c (ref, of
// stored table t, the source of q it names) whose table and joined
// tables hold no currency, while a table its rows belong to through
// declared foreign keys (currencyHolders) holds several: payments summed
// alone gave 155410.3, euros, dollars and pounds added, with nothing
// said, where the same sum joined to orders was named. Each warning gives
// the join and the grouping, as plan JSON, that keep the currencies
// apart. A plan that reads that currency anywhere (an IN subquery keeping
// one) decided already, and one row of t, or of the table its key
// reaches, holds one currency.
func heldCurrencies(snap *schema.Snapshot, plan, q *planast.Query, f *planast.Func, ref *planast.Column, t *schema.Table, c *schema.Column, stored func(string, string, string) []string) []currencyFinding {
	if !moneyName(c.Name) || quantity(c) || oneRow(q, t, ref.Table) {
		return nil
	}
	src := storedSource(snap, q, ref, t)
	if src == nil {
		return nil // a derived table may not pass the keys a join needs
	}
	var out []currencyFinding
	for _, h := range currencyHolders(snap, t) {
		first := h.hops[0].fk
		if !slices.ContainsFunc(first.Columns, func(k string) bool { return !pinned(q, ref.Table, k) }) {
			continue // one row it belongs to per result row
		}
		p := h.hops[len(h.hops)-1].to
		vals, all := knownValues(p, h.cur, stored)
		distinct := distinctLoose(vals)
		if !all || len(distinct) < 2 || readsColumn(snap, plan, p, h.cur) {
			continue
		}
		out = append(out, heldWarning(snap, plan, q, f, src, h, distinct))
	}
	return out
}

// heldWarning words heldCurrencies' warning of holder h, with the
// sources and joins (fresh aliases) that reach it from source src and
// the currency column to group by; a probe of q adds the same sources
// and joins to count the currencies its rows reach.
func heldWarning(snap *schema.Snapshot, plan, q *planast.Query, f *planast.Func, src *planast.From, h currencyHolder, distinct []string) currencyFinding {
	fd := currencyFinding{q: q, what: "currencies", n: len(distinct)}
	var froms, joins []string
	var path, left string
	fd.froms, fd.joins, froms, joins, path, left = joinHops(snap, usedAliases(plan), src.Alias, h.hops)
	p := h.hops[len(h.hops)-1].to
	fd.cur = &planast.Column{Table: left, Column: h.cur.Name}
	cur, _ := planast.JSON(fd.cur)
	fd.head = exprText(f) + " adds amounts in "
	fd.held = fmt.Sprintf("%q holds %s", p.Name+"."+h.cur.Name, someQuoted(distinct))
	fd.tail = fmt.Sprintf(`, a figure in none of them: each row of %s belongs to one of %s (%s), which holds the currency and which this plan does not join; add %s to "from" and %s to "joins", then group by %s (and select it) or keep one currency in the where`,
		h.hops[0].from.Name, p.Name, path, strings.Join(froms, ", "), strings.Join(joins, ", "), cur)
	return fd
}

// joinHops are the sources and joins (fresh aliases, not in used) that
// reach the last table of hops from the source aliased from, as values
// and as plan JSON, with the path they follow ("payments.order_id →
// orders") and the alias of the last table. The joins are left joins:
// they keep the rows of from that belong to none.
func joinHops(snap *schema.Snapshot, used map[string]bool, from string, hops []currencyHop) (sources []planast.From, joins []planast.Join, fromJSON, joinJSON []string, path, last string) {
	left := from
	path = hops[0].from.Name
	for _, hop := range hops {
		alias := freshAlias(hop.to.Name, used)
		schemaName := ""
		if hop.to.Schema != snap.Default() {
			schemaName = hop.to.Schema
		}
		src := planast.From{Schema: schemaName, Table: hop.to.Name, Alias: alias}
		fr, _ := planast.JSON(src)
		on := make([]planast.OnPair, len(hop.fk.Columns))
		for i := range hop.fk.Columns {
			on[i] = planast.OnPair{LeftColumn: hop.fk.Columns[i], RightColumn: hop.fk.RefColumns[i]}
		}
		// a left join keeps the amounts of rows that belong to none
		join := planast.Join{Type: planast.JoinLeft, Left: left, Right: alias, On: on}
		j, _ := planast.JSON(join)
		fromJSON, joinJSON = append(fromJSON, string(fr)), append(joinJSON, string(j))
		sources, joins = append(sources, src), append(joins, join)
		path = fmt.Sprintf("%s.%s → %s", path, strings.Join(hop.fk.Columns, ", "), hop.to.Name)
		left = alias
	}
	return sources, joins, fromJSON, joinJSON, path, left
}

// storedSource is the source of q that ref names when it reads stored
// table t itself, nil when ref names a derived table or a CTE.
func storedSource(snap *schema.Snapshot, q *planast.Query, ref *planast.Column, t *schema.Table) *planast.From {
	for i := range q.From {
		fr := &q.From[i]
		if ref.Table != fr.Alias && (ref.Table != "" || len(q.From) != 1) {
			continue
		}
		if fr.Subquery != nil || slices.ContainsFunc(q.With, func(c planast.CTE) bool { return c.Name == fr.Table }) {
			return nil
		}
		if st, ok := snap.Lookup(fr.Schema, fr.Table); ok && st == t {
			return fr
		}
		return nil
	}
	return nil
}

// readsColumn reports whether plan reads column c of stored table t
// anywhere (a where, a group_by, a subquery's select).
func readsColumn(snap *schema.Snapshot, plan *planast.Query, t *schema.Table, c *schema.Column) bool {
	hit := false
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			if r, ok := e.(*planast.Column); ok && !hit {
				rt, rc := emptyrange.TableOfColumn(snap, q, r)
				hit = rt == t && rc != nil && rc.Name == c.Name
			}
		})
	})
	return hit
}

// usedAliases are the source aliases and CTE names of plan, lower case:
// an alias the fix adds must be none of them (aliases compare ignoring
// case).
func usedAliases(plan *planast.Query) map[string]bool {
	used := map[string]bool{}
	eachQuery(plan, func(q *planast.Query) {
		for _, fr := range q.From {
			used[strings.ToLower(fr.Alias)] = true
		}
		for _, c := range q.With {
			used[strings.ToLower(c.Name)] = true
		}
	})
	return used
}

// freshAlias is an alias for table name that used lacks (the table's
// first letter, its name, then its name numbered), marked used.
func freshAlias(name string, used map[string]bool) string {
	n := strings.ToLower(name)
	cands := []string{n}
	if r := n[0]; r >= 'a' && r <= 'z' {
		cands = []string{n[:1], n}
	}
	for i := 2; ; i++ {
		for _, a := range cands {
			if !used[a] {
				used[a] = true
				return a
			}
		}
		cands = []string{fmt.Sprintf("%s_%d", n, i)}
	}
}

// viewCurrencies are the warnings of SUM or AVG f of column c of
// view v, which has no currency column, when its definition computes c
// from an amount of a table it reads, and a table it reads holds the
// currency in several values in a column the definition never names
// (neither grouping by, keeping one nor showing it): customer_lifetime's
// SUM(oi.quantity * oi.unit_price) over orders in EUR, USD and GBP is in
// no currency, and neither is any sum of it. The definition is read as
// text (no lineage is stored): c's select item is the one ending in its
// name.
func viewCurrencies(snap *schema.Snapshot, f *planast.Func, v *schema.Table, c *schema.Column, stored func(string, string, string) []string) []string {
	if v.Kind != schema.KindView || v.Definition == "" || currencyColumn(v) != nil {
		return nil
	}
	toks, named, ok := definitionNames(snap, v)
	if !ok {
		return nil
	}
	item := viewSelectItem(toks, c.Name)
	var reads []*schema.Table
	for _, r := range v.Reads {
		if t, ok := snap.Lookup(r.Schema, r.Name); ok {
			reads = append(reads, t)
		}
	}
	// the item reads an amount of a table the view reads
	amount := slices.ContainsFunc(item, func(tok sqlscan.Token) bool {
		return (tok.Kind == sqlscan.Word || tok.Kind == sqlscan.Quoted) && slices.ContainsFunc(reads, func(t *schema.Table) bool {
			return slices.ContainsFunc(t.Columns, func(a schema.Column) bool {
				return strings.EqualFold(a.Name, tok.Name()) && (a.Type.IsNumeric() || textual(&a)) && moneyName(a.Name) && !quantity(&a) && !codeName(a.Name) && !inOneCurrency(a.Name)
			})
		})
	})
	if !amount {
		return nil
	}
	var out []string
	for _, h := range reads {
		cur := currencyColumn(h)
		if cur == nil || named[strings.ToLower(cur.Name)] {
			continue
		}
		vals, all := knownValues(h, cur, stored)
		distinct := distinctLoose(vals)
		if !all || len(distinct) < 2 {
			continue
		}
		out = append(out, fmt.Sprintf(`%s adds amounts in %d currencies (%q holds %s), a figure in none of them: view %s computes %s from amounts in all of them, never grouping by or keeping one of %s; sum the amounts from the view's tables instead, grouped by %s.%s`,
			exprText(f), len(distinct), h.Name+"."+cur.Name, someQuoted(distinct), v.Name, c.Name, h.Name+"."+cur.Name, h.Name, cur.Name))
	}
	return out
}

// definitionNames are the tokens of view v's definition, scanned as its
// engine writes SQL, and the names it holds (words and quoted names,
// lower case); ok is false when it has none or does not scan.
func definitionNames(snap *schema.Snapshot, v *schema.Table) (toks []sqlscan.Token, named map[string]bool, ok bool) {
	if v.Definition == "" {
		return nil, nil, false
	}
	toks, err := sqlscan.ScanSQLite(v.Definition)
	if snap.Dialect != "sqlite" {
		toks, err = sqlscan.Scan(v.Definition)
	}
	if err != nil {
		return nil, nil, false
	}
	named = map[string]bool{}
	for _, t := range toks {
		if t.Kind == sqlscan.Word || t.Kind == sqlscan.Quoted {
			named[strings.ToLower(t.Name())] = true
		}
	}
	return toks, named, true
}

// viewSelectItem are the tokens of the top-level select item of a view's
// definition (toks) that ends in name (AS name, or the column itself),
// nil when none does.
func viewSelectItem(toks []sqlscan.Token, name string) []sqlscan.Token {
	start, end := sqlscan.TopLevel(toks, "SELECT"), sqlscan.TopLevel(toks, "FROM")
	if start < 0 || end <= start {
		return nil
	}
	depth, from := 0, start+1
	for i := start + 1; i <= end; i++ {
		t := toks[i]
		switch {
		case t.Kind == sqlscan.Op && t.Text == "(":
			depth++
		case t.Kind == sqlscan.Op && t.Text == ")":
			depth--
		case depth == 0 && (i == end || t.Kind == sqlscan.Op && t.Text == ","):
			if last := toks[i-1]; i > from && (last.Kind == sqlscan.Word || last.Kind == sqlscan.Quoted) && strings.EqualFold(last.Name(), name) {
				return toks[from:i]
			}
			from = i + 1
		}
	}
	return nil
}

// keysByNulls is t's foreign keys, the one whose columns are NULL in the
// fewest rows first (ties in their listed order): orders.customer_id
// names the buyer of every order, orders.referrer_id someone for a third
// of them, and the first key SQLite lists may be either.
func keysByNulls(t *schema.Table) []schema.ForeignKey {
	nulls := func(fk schema.ForeignKey) float64 {
		n := 0.0
		for _, name := range fk.Columns {
			if c, ok := t.Column(name); ok && c.Profile != nil {
				n += c.Profile.NullFraction
			}
		}
		return n
	}
	out := slices.Clone(t.ForeignKeys)
	slices.SortStableFunc(out, func(a, b schema.ForeignKey) int { return cmp.Compare(nulls(a), nulls(b)) })
	return out
}
