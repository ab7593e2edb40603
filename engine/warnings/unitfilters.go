package warnings

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// unitFilters name a comparison of a measure, or of a value made of it
// (o.qty * p.weight > 50), with a number (weight > 20) whose unit a
// column beside it holds in several units (weight_unit: 'kg', 'lb'): rows
// in pounds were kept or dropped as if in kilograms, "listings over 20
// kg" counted 110 where 157 are, and only a sum was warned of. The
// warning names the expression compared. A where that keeps one unit
// (keptValues), or a comparison of the measure converted by its unit (a
// CASE reading the unit column), decided already; grouping by the unit
// does not, the one number being a threshold in one unit.
func unitFilters(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			b, ok := e.(*planast.Binary)
			if !ok || !slices.Contains([]string{"<", "<=", ">", ">=", "="}, b.Op) {
				return
			}
			x := b.Left
			lit, okl := number(b.Right)
			if !okl {
				x = b.Right
				lit, okl = number(b.Left)
			}
			ref := measured(x)
			if !okl || ref == nil {
				return
			}
			text := lit.Text
			if lit.Type == planast.TInteger {
				text = strconv.FormatInt(lit.Int, 10)
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || !c.Type.IsNumeric() {
				return
			}
			for i := range t.Columns {
				u := &t.Columns[i]
				if u == c || !textual(u) || !lex.UnitColumn(u.Name, c.Name) || reads(x, ref.Table, u.Name) {
					continue
				}
				vals, all := knownValues(t, u, stored)
				kept := keptValues(q, ref.Table, u.Name, distinctLoose(vals))
				if !all || len(kept) < 2 {
					continue
				}
				w := fmt.Sprintf("%s %s %s compares numbers in %d units (%q holds %s) with one number: rows in the other units are kept or left out as if in the same one; convert first (a CASE on %s.%s) or keep one unit in the where",
					exprText(x), b.Op, text, len(kept), u.Name, someQuoted(kept), ref.Table, u.Name)
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		})
	})
	return out
}

// measured is the measure x's value is made of (valueColumn: weight,
// o.qty * p.weight, ROUND(weight)), nil when there is none or x holds
// an aggregate or a window: SUM(weight) > 100 is named by the
// aggregate's own warning.
func measured(x planast.Expr) *planast.Column {
	if planast.ContainsAggregate(x) || planast.ContainsWindow(x) {
		return nil
	}
	return valueColumn(x)
}

// number is the literal number e is, or e casts (the validator casts an
// integer compared with a float column).
func number(e planast.Expr) (*planast.Literal, bool) {
	if c, ok := e.(*planast.Cast); ok {
		e = c.Expr
	}
	lit, ok := e.(*planast.Literal)
	return lit, ok && (lit.Type == planast.TInteger || lit.Type == planast.TDecimal)
}
