package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// zeroDivisors explain a division by the literal 0 (NULL on every row),
// and a division by a column that holds 0: "/", div and
// % give NULL there on every engine (the renderer guards each with
// NULLIF), so a ratio per row is NULL for those rows and an AVG or SUM of
// it leaves them out without a word, where a person dividing by hand
// would have stopped at the zero. Only a profile whose least or greatest
// value is 0 proves a zero is stored; a range that merely spans 0 does
// not. A query that tests the divisor itself (a where, or a CASE around
// the division) has dealt with it and earns nothing.
func zeroDivisors(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		tested := map[string]bool{}
		inspectQuery(q, func(e planast.Expr) {
			if c, ok := e.(*planast.Case); ok {
				for _, w := range c.Whens {
					inspectOwn(w.When, func(x planast.Expr) {
						if ref, ok := x.(*planast.Column); ok {
							tested[ref.Table+"."+ref.Column] = true
						}
					})
				}
			}
		})
		whereColumns(q, tested)
		inspectQuery(q, func(e planast.Expr) {
			b, ok := e.(*planast.Binary)
			if !ok || b.Op != planast.OpDiv && b.Op != planast.OpIDiv && b.Op != planast.OpMod {
				return
			}
			if lit, ok := b.Right.(*planast.Literal); ok && literalZero(lit) {
				left, _ := planast.JSON(b.Left)
				out = append(out, fmt.Sprintf(`%s is divided by the literal 0 (op %q), which is NULL on every engine and every row: divide by the quantity meant`, left, b.Op))
				return
			}
			ref, ok := b.Right.(*planast.Column)
			if !ok || tested[ref.Table+"."+ref.Column] {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || seen[c] || c.Profile == nil || !isZero(c.Profile.Min) && !isZero(c.Profile.Max) {
				return
			}
			seen[c] = true
			out = append(out, fmt.Sprintf(`%q holds 0 (its profiled range is [%v, %v]), and a division by 0 is NULL on every engine: the quotient is NULL on the rows where %s.%s is 0, so they count in no sum, average or comparison; to leave them out on purpose add {"kind": "binary", "op": "!=", "left": {"kind": "column", "table": %s, "column": %s}, "right": {"kind": "literal", "value": 0}} to the where, or give them a value with a CASE`,
				c.Name, c.Profile.Min, c.Profile.Max, ref.Table, ref.Column, jsonText(ref.Table), jsonText(ref.Column)))
		})
	})
	return out
}

// literalZero reports whether lit is the number 0 (an integer or a decimal
// such as 0.00).
func literalZero(lit *planast.Literal) bool {
	switch lit.Type {
	case planast.TInteger:
		return lit.Int == 0
	case planast.TDecimal:
		return strings.Trim(lit.Text, "0.-+") == ""
	}
	return false
}

// isZero reports whether a profiled value is the number 0.
func isZero(v any) bool { return v != nil && zeroRow([]any{v}) }
