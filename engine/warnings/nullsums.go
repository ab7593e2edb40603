package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// nullTerms names a column, NULL in a material share of its rows, that is
// a term of arithmetic inside SUM or AVG beside other terms: the whole
// value is NULL where it is, and the aggregate leaves those rows out.
// "Average paid per order" as AVG(total + tip) over tips NULL where no
// tip was given averaged the tipped orders only (31.61 where 31.41), with
// nothing said. The fix reads the column through COALESCE(x, 0), for the
// question to accept or not (a NULL may mean unknown rather than none). A
// column read through COALESCE or NULLIF, or a query that filters on it,
// decided already.
func nullTerms(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || len(f.Args) != 1 || !slices.Contains([]string{"SUM", "AVG"}, strings.ToUpper(f.Name)) {
				return
			}
			b, ok := f.Args[0].(*planast.Binary)
			if !ok || !arithmetic(b.Op) {
				return
			}
			for _, ref := range terms(b) {
				_, c := emptyrange.TableOfColumn(snap, q, ref)
				if c == nil || !c.Type.IsNumeric() || c.Profile == nil || c.Profile.NullFraction < schemactx.MaterialNulls || filteredBy(q, ref) {
					continue
				}
				coalesced, _ := planast.JSON(&planast.Func{Name: "COALESCE", Args: []planast.Expr{ref, &planast.Literal{Type: planast.TInteger, Int: 0}}})
				w := fmt.Sprintf("%s is NULL wherever %s.%s is (%s of its rows, profiled), and %s leaves those rows out; if a missing %s means 0, read it as %s",
					exprText(f.Args[0]), ref.Table, ref.Column, schemactx.NullShare(c.Profile.NullFraction), strings.ToUpper(f.Name), ref.Column, coalesced)
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		})
	})
	return out
}

// arithmetic reports whether op is one of +, -, *, /, div and % (a
// NULL term makes each NULL).
func arithmetic(op string) bool {
	switch op {
	case planast.OpAdd, planast.OpSub, planast.OpMul, planast.OpDiv, planast.OpIDiv, planast.OpMod:
		return true
	}
	return false
}

// terms are the bare columns (through casts) joined by arithmetic in b,
// at any depth of arithmetic: a column inside a function (COALESCE,
// NULLIF, ABS) is not one.
func terms(b *planast.Binary) []*planast.Column {
	var out []*planast.Column
	for _, side := range []planast.Expr{b.Left, b.Right} {
		if inner, ok := side.(*planast.Binary); ok && arithmetic(inner.Op) {
			out = append(out, terms(inner)...)
		} else if ref := bareColumn(side); ref != nil {
			out = append(out, ref)
		}
	}
	return out
}
