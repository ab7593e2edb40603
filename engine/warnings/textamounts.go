package warnings

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// amountText is a literal that writes an amount: digits, with a sign, a
// currency symbol, separators or a percent sign around them ('$500',
// '1,200', '12.5%').
var amountText = regexp.MustCompile(`^\s*[-+(]?\s*\p{Sc}?\s*[0-9][0-9,.' ]*\s*(%|\p{Sc})?\)?\s*$`)

// textAmountFilters name each comparison (<, <=, >, >=, BETWEEN) of a text
// column of numbers or amounts with a literal: text compares character
// by character, so '$99.99' > '$500' and '9' > '10', and "orders over
// $500" returns the wrong ones, with nothing to show it. A column counts
// when the profile found most of its sampled values hold numbers or
// amounts (it counted what a cast to a number loses), or when its
// samples all hold numbers.
func textAmountFilters(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	textComparisons(snap, plan, rangeOps, amountText, func(ref *planast.Column, c *schema.Column, lit string, _ planast.Expr) {
		if seen[c] || !numbersAsText(c.Profile) {
			return
		}
		seen[c] = true
		out = append(out, fmt.Sprintf("%s.%s is compared as text with %s, and it holds numbers written as text: text compares character by character ('9' > '10', '$99.99' > '$500'), so the rows kept are not those over or under the amount; cast the column to a number, removing signs and separators with REPLACE first (a cast reads '$1,200.00' as NULL) and compare it with a number literal",
			ref.Table, ref.Column, example(strings.TrimSpace(lit), planast.TypeText)))
	})
	return out
}

// numbersAsText reports whether a text column's profile shows numbers or
// amounts: casts to a number were counted (most samples hold one or an
// amount), or every sampled value holds a number.
func numbersAsText(p *schema.ColumnProfile) bool {
	if p == nil {
		return false
	}
	if _, ok := p.CastNull(planast.CastFloat); ok {
		// counted because some sample is a number: a column of codes
		// ('INV-0000243') with a few written as bare digits is no column
		// of amounts, and MIN of it is the least code, as asked
		numbers := 0
		for _, v := range p.SampleValues {
			if s, ok := v.(string); ok && source.NumberText(s) {
				numbers++
			}
		}
		return 2*numbers >= len(p.SampleValues)
	}
	n := 0
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok || !planast.TextHolds(s, planast.CastFloat) {
			return false
		}
		n++
	}
	return n > 0
}

// textAmountOrders names MIN and MAX of a text column that holds numbers
// written as text, and an order_by on one (or on the alias of one): text
// orders character by character, so "the highest credit limit" came back
// as '9999.99' over '$12,500.00' and "the largest order" as 998.85 over
// 2,064.05, with nothing said, where a comparison with an amount was
// warned of.
func textAmountOrders(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	warn := func(q *planast.Query, ref *planast.Column, what string) {
		c := emptyrange.FromColumn(snap, q, ref)
		if c == nil || c.Type != planast.TypeText || seen[c] || !numbersAsText(c.Profile) || zeroPadded(c.Profile) {
			return
		}
		seen[c] = true
		out = append(out, fmt.Sprintf("%s %s.%s orders its values as text, and it holds numbers written as text: text orders character by character ('9999.99' comes after '$12,500.00', '9' after '10'), so the first and last rows are not the smallest and largest amounts; cast the column to a number, removing signs and separators with REPLACE first (a cast reads '$1,200.00' as NULL)",
			what, ref.Table, ref.Column))
	}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		inspectQuery(q, func(e planast.Expr) {
			if f, ok := e.(*planast.Func); ok && len(f.Args) == 1 && (strings.EqualFold(f.Name, "MIN") || strings.EqualFold(f.Name, "MAX")) {
				if ref, ok := f.Args[0].(*planast.Column); ok {
					warn(q, ref, strings.ToUpper(f.Name)+" of")
				}
			}
		})
		orderedColumns(q, func(ref *planast.Column) { warn(q, ref, "order_by on") })
		return true
	})
	return out
}

// orderedColumns calls f with each column q's order_by orders by: a
// column, or the column a select item of that alias is.
func orderedColumns(q *planast.Query, f func(ref *planast.Column)) {
	for _, o := range q.OrderBy {
		ref, ok := o.Expr.(*planast.Column)
		if !ok {
			continue
		}
		if alias := ref.Column; ref.Table == "" { // an output alias: the item it names
			ref = nil
			for _, it := range q.Select {
				if c, isCol := it.Expr.(*planast.Column); isCol && it.Alias == alias {
					ref = c
				}
			}
		}
		if ref != nil {
			f(ref)
		}
	}
}

// zeroPadded reports whether a text column's samples are codes of one
// width padded with zeros ('000007', '000840'): digits only, every one as
// long as the others, one at least starting with 0. Text orders such codes
// as their numbers, and a cast to a number would drop the zeros they are
// written with.
func zeroPadded(p *schema.ColumnProfile) bool {
	width, lead := -1, false
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok || s == "" || strings.Trim(s, "0123456789") != "" || width >= 0 && len(s) != width {
			return false
		}
		width, lead = len(s), lead || s[0] == '0'
	}
	return lead
}
