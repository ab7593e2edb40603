package multi

import (
	"context"
	"fmt"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// Keys that match nothing across datasources. Two databases kept by
// different hands rarely agree on every key: tickets of prospects that the
// billing database never held (account 9001), orders whose customer was
// deleted. A join of their results leaves such rows out without a sign,
// and nothing in either schema declares the link, so no warning of one
// datasource can see it. unmatched counts, for each join of the combine
// plan between two sources, the rows of each side an inner join drops
// because their key is set but matches no row of the other side, and
// names one key. An outer join keeps its own side and drops the other's
// unmatched rows by intent: it is not said of.

// unmatched runs the counts over db's loaded tables; refs maps a table
// (a sub-query id) to the name its source was given. A probe that fails
// adds nothing: it only warns.
func unmatched(ctx context.Context, db *duckcompute.DB, plan *planast.Query, refs map[string]string) []string {
	if plan == nil {
		return nil
	}
	tables := map[string]string{} // alias → sub-query table
	for _, f := range plan.From {
		if _, ok := refs[f.Table]; ok && f.Subquery == nil {
			tables[f.Alias] = f.Table
		}
	}
	var out []string
	for _, j := range plan.Joins {
		lt, lok := tables[j.Left]
		rt, rok := tables[j.Right]
		if !lok || !rok || len(j.On) == 0 {
			continue
		}
		var lcols, rcols []string
		for _, on := range j.On {
			lcols, rcols = append(lcols, on.LeftColumn), append(rcols, on.RightColumn)
		}
		check := func(from string, fromCols []string, other string, otherCols []string) {
			n, ex, ok := countUnmatched(ctx, db, from, fromCols, other, otherCols)
			if !ok || n == 0 {
				return
			}
			rows := fmt.Sprintf("%d rows", n)
			if n == 1 {
				rows = "1 row"
			}
			out = append(out, fmt.Sprintf("%s of source %q: %s matches no row of source %q (such as %s), so the inner join left them out: if they belong in the answer, the two databases do not hold the same records or write the key two ways",
				rows, refs[from], fromCols[0], refs[other], ex))
		}
		// an outer join drops only the other side's unmatched rows, which
		// is what a host writing one means (the tickets of the accounts it
		// lists, not the rest): only an inner join, which drops rows of
		// both sides, is said of
		if j.Type == "" || j.Type == planast.JoinInner {
			check(lt, lcols, rt, rcols)
			check(rt, rcols, lt, lcols)
		}
	}
	return out
}

// countUnmatched counts the rows of table from whose key columns are all
// set and match no row of table other, and gives the least first key.
func countUnmatched(ctx context.Context, db *duckcompute.DB, from string, fromCols []string, other string, otherCols []string) (int64, string, bool) {
	col := func(alias, name string) planast.Expr { return &planast.Column{Table: alias, Column: name} }
	var set, match planast.Expr
	for i := range fromCols {
		s := planast.Expr(&planast.IsNull{Expr: col("u", fromCols[i]), Negated: true})
		m := planast.Expr(&planast.Binary{Op: planast.OpEq, Left: col("o", otherCols[i]), Right: col("u", fromCols[i])})
		if i == 0 {
			set, match = s, m
			continue
		}
		set = &planast.Binary{Op: planast.OpAnd, Left: set, Right: s}
		match = &planast.Binary{Op: planast.OpAnd, Left: match, Right: m}
	}
	probe := &planast.Query{
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "n"},
			{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{col("u", fromCols[0])}}, Alias: "example"},
		},
		From: []planast.From{{Table: from, Alias: "u"}},
		Where: &planast.Binary{Op: planast.OpAnd, Left: set, Right: &planast.Exists{Negated: true, Subquery: &planast.Query{
			Select: []planast.SelectItem{{Expr: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}, Alias: "one"}},
			From:   []planast.From{{Table: other, Alias: "o"}},
			Where:  match,
		}}},
	}
	res, err := db.Run(ctx, probe, 1)
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return 0, "", false
	}
	n, _ := res.Rows[0][0].(int64)
	return n, cellfmt.Text(fmt.Sprint(res.Rows[0][1])), true
}
