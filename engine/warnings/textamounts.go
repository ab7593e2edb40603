package warnings

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
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
	textComparisons(snap, plan, false, amountText, func(ref *planast.Column, c *schema.Column, lit string) {
		if seen[c] || !numbersAsText(c.Profile) {
			return
		}
		seen[c] = true
		out = append(out, fmt.Sprintf("%s.%s is compared as text with %s, and it holds numbers written as text: text compares character by character ('9' > '10', '$99.99' > '$500'), so the rows kept are not those over or under the amount; cast the column to a number (removing signs and separators with REPLACE first, as the cast's warning shows) and compare it with a number literal",
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
		return true
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
