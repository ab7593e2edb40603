package multi

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/planast"
)

// Joins across datasources that repeat rows. No catalog links two
// databases, so the validator's fan-out check (a join on a key that is
// not unique on the far side) cannot see a combination's joins; the rows
// can. A customer with two meters had each bill counted twice when bills
// were joined to meters and summed: 106,649.06 where the bills total
// 94,594.65. fanout names, for each join of the combine plan, a side whose
// join key repeats in its rows while the combine plan aggregates columns
// of the other side. A join with a condition beside its keys (a meter
// period holding the bill's date) is asked of its rows under the whole
// condition: keys that repeat are no fault when the condition leaves one
// match per row.

// fanout runs the checks over db's loaded tables; refs maps a table (a
// sub-query id) to its source's name. A probe that fails adds nothing.
func fanout(ctx context.Context, db *duckcompute.DB, plan *planast.Query, refs map[string]string) []string {
	if plan == nil {
		return nil
	}
	summed := aggregatedAliases(plan)
	var out []string
	for _, sj := range sourceJoins(plan, refs) {
		j, lt, rt, lcols, rcols := sj.join, sj.left, sj.right, sj.leftCols, sj.rightCols
		for _, side := range []struct {
			alias, table  string
			other, otherT string
			cols          []string
			otherCols     []string
		}{{j.Left, lt, j.Right, rt, lcols, rcols}, {j.Right, rt, j.Left, lt, rcols, lcols}} {
			cols := summed[side.alias]
			if len(cols) == 0 {
				continue
			}
			if j.Condition != nil && readsOnly(j.Condition, j.Left, j.Right) {
				n, ex := matchedTwice(ctx, db, j, side.alias, side.table, side.other, side.otherT, side.cols[0])
				if n > 0 {
					out = append(out, fmt.Sprintf("%s of source %q %s more than one row of source %q under the join's keys and condition (such as %s %s), so the join repeats each of them, once per match, and the aggregate of %s counts those rows several times; make the condition pick one row, or aggregate source %q per %s before the join",
						rowsText(n), refs[side.table], plural(n, "matches", "match"), refs[side.otherT], strings.Join(side.cols, ", "), ex, strings.Join(cols, ", "), refs[side.otherT], strings.Join(side.otherCols, ", ")))
				}
				continue
			}
			n, ex := repeatedKeys(ctx, db, side.otherT, side.otherCols)
			if n == 0 {
				continue
			}
			out = append(out, fmt.Sprintf("%d %s of %s in source %q %s in more than one of its rows (such as %s), so the join repeats each row of source %q that matches one, once per match, and the aggregate of %s counts those rows several times; aggregate source %q per %s before the join (a plan grouping it by the key), or count distinct rows",
				n, plural(n, "key", "keys"), strings.Join(side.otherCols, ", "), refs[side.otherT], plural(n, "appears", "appear"), ex, refs[side.table], strings.Join(cols, ", "), refs[side.otherT], strings.Join(side.otherCols, ", ")))
		}
	}
	return out
}

// plural is one or many by n.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// aggregatedAliases maps each alias of plan's from to the columns of it
// that an aggregate of plan reads (SUM(b.amount), AVG, COUNT of a column;
// COUNT(*) and MIN/MAX, which repeated rows do not change, left out).
func aggregatedAliases(plan *planast.Query) map[string][]string {
	out := map[string][]string{}
	for _, root := range plan.OwnExprs() {
		planast.Inspect(root, func(n planast.Node) bool {
			f, ok := n.(*planast.Func)
			if !ok || !planast.IsAggregate(f) || f.Distinct {
				return true
			}
			switch strings.ToUpper(f.Name) {
			case "MIN", "MAX":
				return false
			}
			for _, a := range f.Args {
				planast.Inspect(a, func(n planast.Node) bool {
					if c, ok := n.(*planast.Column); ok && c.Table != "" {
						name := c.Table + "." + c.Column
						if !slices.Contains(out[c.Table], name) {
							out[c.Table] = append(out[c.Table], name)
						}
					}
					return true
				})
			}
			return false
		})
	}
	return out
}

// matchedTwice counts the rows of table (as alias) that join j, its keys
// and its condition, matches to more than one row of otherT (as other),
// and gives the least key (keyCol) of one. Rows alike in every column
// count as one row matched as often as they are many.
func matchedTwice(ctx context.Context, db *duckcompute.DB, j planast.Join, alias, table, other, otherT, keyCol string) (int64, string) {
	shape, ok := db.Catalog().Shape(table)
	if !ok {
		return 0, ""
	}
	var group []planast.Expr
	for _, c := range shape.Columns {
		group = append(group, &planast.Column{Table: alias, Column: c.Name})
	}
	j.Type = planast.JoinInner
	from := []planast.From{{Table: table, Alias: alias}, {Table: otherT, Alias: other}}
	if j.Left != alias {
		from[0], from[1] = from[1], from[0]
	}
	inner := &planast.Query{
		Select:  []planast.SelectItem{{Expr: &planast.Column{Table: alias, Column: keyCol}, Alias: "k"}},
		From:    from,
		Joins:   []planast.Join{j},
		GroupBy: group,
		Having:  &planast.Binary{Op: ">", Left: &planast.Func{Name: "COUNT"}, Right: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}},
	}
	return countAndLeast(ctx, db, inner)
}

// repeatedKeys counts the distinct keys (cols, all set) that appear in
// more than one row of table, and gives the least first key.
func repeatedKeys(ctx context.Context, db *duckcompute.DB, table string, cols []string) (int64, string) {
	var keys []planast.Expr
	var set planast.Expr
	for i, c := range cols {
		col := &planast.Column{Table: "t", Column: c}
		keys = append(keys, col)
		s := planast.Expr(&planast.IsNull{Expr: col, Negated: true})
		if i == 0 {
			set = s
			continue
		}
		set = &planast.Binary{Op: planast.OpAnd, Left: set, Right: s}
	}
	inner := &planast.Query{
		Select:  []planast.SelectItem{{Expr: &planast.Column{Table: "t", Column: cols[0]}, Alias: "k"}},
		From:    []planast.From{{Table: table, Alias: "t"}},
		Where:   set,
		GroupBy: keys,
		Having:  &planast.Binary{Op: ">", Left: &planast.Func{Name: "COUNT"}, Right: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}},
	}
	return countAndLeast(ctx, db, inner)
}

// readsOnly reports whether every column e reads is of one of aliases: a
// join condition naming a third table cannot be asked of the two alone.
func readsOnly(e planast.Expr, aliases ...string) bool {
	ok := true
	planast.Inspect(e, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Column:
			ok = ok && slices.Contains(aliases, x.Table)
		case *planast.Query:
			ok = false // a subquery's own tables
		}
		return ok
	})
	return ok
}

// countAndLeast runs inner, a query of one column k, and gives its rows'
// count and least k; 0 when the probe fails.
func countAndLeast(ctx context.Context, db *duckcompute.DB, inner *planast.Query) (int64, string) {
	probe := &planast.Query{
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "n"},
			{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{&planast.Column{Table: "r", Column: "k"}}}, Alias: "example"},
		},
		From: []planast.From{{Subquery: inner, Alias: "r"}},
	}
	res, err := db.Run(ctx, probe, 1)
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return 0, ""
	}
	n, _ := res.Rows[0][0].(int64)
	return n, keyText(res.Rows[0][1])
}
