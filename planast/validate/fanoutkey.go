package validate

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// A join's key on a side is its on-pairs' columns and the columns of that
// side its condition pins by an equality (ANDed) with an expression of
// the other sources or a literal: invoices joined to fx_rates on currency
// with fx.rate_month = the invoice's month meets one rate per invoice
// when (currency, rate_month) is unique, though many rates share a
// currency. A primary key the whole key covers settles it; otherwise,
// when the profile sees every column of the key repeat, only the rows can
// tell whether the combination does: a run probes it (FanoutProbes, the
// most rows of the table sharing one value of the key, the condition's
// filters on the table alone applied) and keeps the warning only when
// some value has several rows; without a run the warning says the
// condition's columns were not probed.

// joinSide names one side of one join of a query.
type joinSide struct {
	q     *Query
	join  int
	right bool
}

// pinnedKey is what is known of a side's key that its join's condition
// narrows: the condition's columns (pinned, "" when it pins none or the
// side repeats no row), and what a probe counted of the whole key.
type pinnedKey struct {
	at     joinSide
	pinned string
	probed bool
	most   int64 // the most rows sharing one value of the key, when probed
}

// sideKey is the pinnedKey of a side many says repeats rows, with what
// found holds of it.
func sideKey(q *Query, join int, right bool, pin, key []string, many bool, found map[joinSide]int64) pinnedKey {
	if !many || len(pin) == 0 {
		return pinnedKey{}
	}
	k := pinnedKey{at: joinSide{q, join, right}, pinned: strings.Join(pin, ", ")}
	k.most, k.probed = found[k.at]
	return k
}

// use records k as the key of a warning given, once.
func (r *fanoutRun) use(k pinnedKey) {
	if k.pinned != "" && !slices.ContainsFunc(r.used, func(u pinnedKey) bool { return u.at == k.at }) {
		r.used = append(r.used, k)
	}
}

// unique reports whether a probe found no value of the key on two rows.
func (k pinnedKey) unique() bool { return k.probed && k.most <= 1 }

// said is what the fan-out warning adds of the key of table's rows.
func (k pinnedKey) said(table string) string {
	switch {
	case k.pinned == "":
		return ""
	case k.probed:
		return fmt.Sprintf("; a run counted up to %d %s rows sharing one value of the whole key, the join condition's %s included", k.most, table, k.pinned)
	}
	return fmt.Sprintf("; the join condition's equality on %s is part of the key and was not probed: a run counts the %s rows sharing one value of the whole key", k.pinned, table)
}

// joinKey is the key of join j on its right (or left) side: its on-pairs'
// columns of that side, then those its condition pins (pinnedBy).
func joinKey(j *Join, right bool) []string {
	var key []string
	alias := j.Left
	if right {
		alias = j.Right
	}
	for _, p := range j.On {
		c := p.LeftColumn
		if right {
			c = p.RightColumn
		}
		key = append(key, c)
	}
	return append(key, pinnedBy(j.Condition, alias)...)
}

// pinnedBy lists the columns of alias that cond's equalities (its
// conjuncts) compare with an expression of no column of alias, nor any
// subquery: each joined row meets one value of them.
func pinnedBy(cond Expr, alias string) []string {
	var out []string
	for _, c := range conjuncts(cond) {
		b, ok := c.(*Binary)
		if !ok || b.Op != OpEq {
			continue
		}
		for _, s := range [][2]Expr{{b.Left, b.Right}, {b.Right, b.Left}} {
			col, ok := s[0].(*Column)
			if ok && col.Table == alias && !reads(s[1], alias) && !slices.Contains(out, col.Column) {
				out = append(out, col.Column)
			}
		}
	}
	return out
}

// reads reports whether e names a column of alias or holds a subquery
// (whose columns may).
func reads(e Expr, alias string) bool {
	hit := false
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *Query:
			hit = true
		case *Column:
			hit = hit || x.Table == alias
		}
		return !hit
	})
	return hit
}

// onlyOf reports whether e names columns of alias and of no other source,
// and no subquery: a filter on the table alone.
func onlyOf(e Expr, alias string) bool {
	ok := true
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *Query:
			ok = false
		case *Column:
			ok = ok && x.Table == alias
		}
		return ok
	})
	return ok
}

// MaxFanoutProbes bounds the join keys of one plan probed: each probe
// reads a joined table once more.
const MaxFanoutProbes = 3

// FanoutProbe is the probe of one join side whose key a join condition
// narrows and whose rows the fan-out warning says repeat: Query (validate
// and run it as the caller, like any other) returns one row, the most
// rows of the table sharing one value of the key; Read takes it.
type FanoutProbe struct {
	Query *Query
	at    joinSide
}

// FanoutProbes are the probes of plan's (a Result.Plan, checked against
// cat) fan-out warnings that a join condition's equalities may make
// wrong, the first MaxFanoutProbes; none when there is none.
func FanoutProbes(plan *Query, cat Catalog) []FanoutProbe {
	run := &fanoutRun{}
	fanoutFound(plan, cat, run)
	var out []FanoutProbe
	for _, k := range run.used {
		if len(out) == MaxFanoutProbes {
			break
		}
		if p := keyProbe(k.at, cat); p != nil {
			out = append(out, FanoutProbe{Query: p, at: k.at})
		}
	}
	return out
}

// keyProbe is the plan that counts the most rows of the table of side at
// sharing one value of its key (on-pair and pinned columns, none NULL),
// under the conjuncts of the join's condition that read that table alone
// (fx.rate_month = '2024-01-01'): SELECT MAX(n) FROM (SELECT COUNT(*) n
// FROM t WHERE … GROUP BY key) g. Nil when the side is no stored table.
func keyProbe(at joinSide, cat Catalog) *Query {
	j := at.q.Joins[at.join]
	alias := j.Left
	if at.right {
		alias = j.Right
	}
	var src *From
	for i := range at.q.From {
		if f := &at.q.From[i]; f.Alias == alias && f.Table != "" {
			src = f
		}
	}
	if src == nil {
		return nil
	}
	if _, ok := cat.LookupTable(src.Schema, src.Table); !ok {
		return nil
	}
	var key []string
	for _, p := range j.On {
		c := p.LeftColumn
		if at.right {
			c = p.RightColumn
		}
		key = append(key, c)
	}
	for _, c := range pinnedBy(j.Condition, alias) {
		if !slices.Contains(key, c) {
			key = append(key, c)
		}
	}
	var where Expr
	and := func(e Expr) {
		if where == nil {
			where = e
		} else {
			where = &Binary{Op: OpAnd, Left: where, Right: e}
		}
	}
	var group []Expr
	for _, c := range key {
		and(&IsNull{Expr: &Column{Table: alias, Column: c}, Negated: true})
		group = append(group, &Column{Table: alias, Column: c})
	}
	for _, c := range conjuncts(j.Condition) {
		if c != nil && onlyOf(c, alias) {
			and(cloneExpr(c))
		}
	}
	inner := &Query{
		Select:  []SelectItem{{Expr: &Func{Name: "COUNT"}, Alias: "n"}},
		From:    []From{{Schema: src.Schema, Table: src.Table, Alias: alias}},
		Where:   where,
		GroupBy: group,
	}
	return &Query{
		Select: []SelectItem{{Expr: &Func{Name: "MAX", Args: []Expr{&Column{Table: "g", Column: "n"}}}, Alias: "most"}},
		From:   []From{{Subquery: inner, Alias: "g"}},
	}
}

// FanoutFound is what probes counted: by each probe, the row its Query
// returned. FanoutWarnings reads it.
type FanoutFound map[FanoutProbe][]any

// FanoutWarnings are the fan-out warnings of plan (a Result.Plan, checked
// against cat), as Plan words them when found is empty, and with what
// the probes found otherwise: a key no value of which a probe found on
// two rows repeats no row, so its warning goes; one a probe found
// repeated says how often. A row a probe returned that is no count (or
// none) leaves its key as the profile says.
func FanoutWarnings(plan *Query, cat Catalog, found FanoutFound) []string {
	counts := map[joinSide]int64{}
	for p, row := range found {
		if len(row) != 1 {
			continue
		}
		switch x := row[0].(type) {
		case nil: // MAX over no group: no row has a value of the key
			counts[p.at] = 0
		case int64:
			counts[p.at] = x
		case int32:
			counts[p.at] = int64(x)
		case int:
			counts[p.at] = int64(x)
		case float64:
			if x == float64(int64(x)) {
				counts[p.at] = int64(x)
			}
		}
	}
	return fanoutFound(plan, cat, &fanoutRun{found: counts})
}
