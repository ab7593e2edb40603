package render

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// wrapped renders a query with qualify or with_ties as three nested
// SELECTs, which every engine runs alike:
//
//	SELECT outputs FROM (
//	  SELECT outputs, keys[, RANK() OVER (ORDER BY keys) AS rank] FROM (
//	    SELECT outputs, order_by keys FROM ... WHERE ... GROUP BY ... HAVING ...
//	  ) AS q WHERE qualify
//	) AS q [WHERE rank <= limit] ORDER BY keys, tie-breakers LIMIT ...
//
// The innermost SELECT computes the outputs and every order_by key that is
// no output as an extra column, so the outer levels see only columns: the
// qualify condition names outputs by alias, and RANK() ranks the rows that
// qualify by the order_by keys. With ties, limit n keeps the rows ranked n
// or better, which are the first n rows and every row tying with the n-th
// on all keys; the outermost LIMIT is then only the row cap, so a result
// cut by it has more rows than the cap and the engine reports it as cut.
func (w *writer) wrapped(q *planast.Query, opts Options, top bool) {
	if len(q.SetOps) > 0 {
		w.fail("qualify or with_ties on a query with set operations")
	}
	used := map[string]bool{}
	for _, it := range q.Select {
		used[strings.ToLower(it.Alias)] = true
	}
	fresh := func(base string) string {
		name := base
		for i := 2; used[strings.ToLower(name)]; i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		used[strings.ToLower(name)] = true
		return name
	}
	inner := *q
	inner.With, inner.OrderBy, inner.Limit, inner.Offset, inner.Qualify, inner.WithTies = nil, nil, nil, nil, nil, false
	inner.Select = append([]planast.SelectItem(nil), q.Select...)
	keyCols := make([]string, len(q.OrderBy)) // the column each key sorts on, quoted
	for i, o := range q.OrderBy {
		if name, ok := outputOf(q, o.Expr); ok {
			keyCols[i] = QuoteIdent(name)
			continue
		}
		name := fresh("order_key_" + strconv.Itoa(i+1))
		inner.Select = append(inner.Select, planast.SelectItem{Expr: o.Expr, Alias: name})
		keyCols[i] = QuoteIdent(name)
	}
	var cols, outs []string
	for i, it := range inner.Select {
		cols = append(cols, QuoteIdent(it.Alias))
		if i < len(q.Select) {
			outs = append(outs, QuoteIdent(it.Alias))
		}
	}
	var keys, winKeys []string
	for i, o := range q.OrderBy {
		keys = append(keys, orderKey(keyCols[i], o))
		winKeys = append(winKeys, windowOrderKey(w.d, keyCols[i], o))
	}
	level1 := w.sub()
	level1.core(&inner, inner.Decimals, w.reads)
	qa := QuoteIdent(fresh("q"))
	rank := ""
	mid := "SELECT " + strings.Join(cols, ", ")
	if q.WithTies {
		rank = QuoteIdent(fresh("tie_rank"))
		mid += ", RANK() OVER (ORDER BY " + strings.Join(winKeys, ", ") + ") AS " + rank
	}
	mid += "\nFROM (" + level1.b.String() + ") AS " + qa
	if q.Qualify != nil {
		mid += "\nWHERE " + w.exprS(q.Qualify)
	}
	w.str("SELECT " + strings.Join(outs, ", ") + "\nFROM (" + mid + ") AS " + qa)
	limit := q.Limit
	if q.WithTies {
		if limit == nil || *limit < 0 {
			w.fail("with_ties needs a limit of zero or more")
		}
		w.str("\nWHERE " + rank + " <= " + strconv.FormatInt(*limit, 10))
		limit = nil
	}
	w.orderLimit(q, keys, limit, opts, top)
}

// outputOf returns the output column an order_by key names or repeats.
func outputOf(q *planast.Query, e planast.Expr) (string, bool) {
	if c, ok := e.(*planast.Column); ok && c.Table == "" {
		for _, it := range q.Select {
			if it.Alias == c.Column {
				return it.Alias, true
			}
		}
	}
	key, _ := json.Marshal(e)
	for _, it := range q.Select {
		if b, _ := json.Marshal(it.Expr); string(b) == string(key) {
			return it.Alias, true
		}
	}
	return "", false
}
