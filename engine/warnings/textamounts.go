package warnings

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/lex"
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
// warned of. An identifier's numbers (invoice_no '999' after '1000') are
// worded as an identifier's order, not amounts. A column whose every
// value the profile holds, and whose text order is their numbers' order
// (numbers of one width), is not named: the warning would be false.
func textAmountOrders(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	for _, fd := range textOrderFindings(snap, plan) {
		out = append(out, fd.text())
	}
	return out
}

// textOrderFinding is one warning of textAmountOrders: what orders (MIN
// of, MAX of, order_by on) column ref of q, c.
type textOrderFinding struct {
	q    *planast.Query
	ref  *planast.Column
	c    *schema.Column
	what string
	fn   string // MIN or MAX; "" for an order_by
}

// textOrderFindings are the findings of textAmountOrders, one a column.
func textOrderFindings(snap *schema.Snapshot, plan *planast.Query) []textOrderFinding {
	var out []textOrderFinding
	seen := map[*schema.Column]bool{}
	warn := func(q *planast.Query, ref *planast.Column, what, fn string) {
		c := emptyrange.FromColumn(snap, q, ref)
		if c == nil || c.Type != planast.TypeText || seen[c] || !numbersAsText(c.Profile) || zeroPadded(c.Profile) || textOrderIsNumeric(c.Profile) {
			return
		}
		seen[c] = true
		out = append(out, textOrderFinding{q: q, ref: ref, c: c, what: what, fn: fn})
	}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		inspectQuery(q, func(e planast.Expr) {
			if f, ok := e.(*planast.Func); ok && len(f.Args) == 1 && (strings.EqualFold(f.Name, "MIN") || strings.EqualFold(f.Name, "MAX")) {
				if ref, ok := f.Args[0].(*planast.Column); ok {
					warn(q, ref, strings.ToUpper(f.Name)+" of", strings.ToUpper(f.Name))
				}
			}
		})
		orderedColumns(q, func(ref *planast.Column) { warn(q, ref, "order_by on", "") })
		return true
	})
	return out
}

// text is the finding's warning: an identifier's order, or amounts'.
func (fd textOrderFinding) text() string {
	if identifierName(fd.ref.Column) {
		before, after := misordered(fd.c.Profile)
		return fmt.Sprintf("%s %s.%s orders its values as text, and this identifier holds numbers written as text: text orders character by character ('%s' comes after '%s'), so the first and last are not the lowest and highest numbers; cast the column to an integer ({\"kind\": \"cast\", \"expr\": {\"kind\": \"column\", \"table\": %s, \"column\": %s}, \"type\": \"integer\"}) to order them as numbers",
			fd.what, fd.ref.Table, fd.ref.Column, strings.TrimSpace(before), strings.TrimSpace(after), jsonText(fd.ref.Table), jsonText(fd.ref.Column))
	}
	return fmt.Sprintf("%s %s.%s orders its values as text, and it holds numbers written as text: text orders character by character ('9999.99' comes after '$12,500.00', '9' after '10'), so the first and last rows are not the smallest and largest amounts; cast the column to a number, removing signs and separators with REPLACE first (a cast reads '$1,200.00' as NULL)",
		fd.what, fd.ref.Table, fd.ref.Column)
}

// idLastWords are the last words of a column's name that say it names one
// thing (invoice_no, order_number, product_code), beside idNamed's.
var idLastWords = []string{"id", "no", "nr", "num", "number", "code", "ref", "reference", "key", "sku", "uuid", "guid"}

// identifierName reports whether a column's name says it holds
// identifiers, whose numbers order records, not amounts.
func identifierName(name string) bool {
	words := lex.SplitWords(name)
	return idNamed(name) || len(words) > 0 && slices.Contains(idLastWords, strings.ToLower(words[len(words)-1]))
}

// misordered is a pair of the profile's sampled numbers that text orders
// against their numbers (the first after the second as text, before it
// as a number: '999' and '1000'), or that example when the samples hold
// none.
func misordered(p *schema.ColumnProfile) (before, after string) {
	var vals []string
	for _, v := range p.SampleValues {
		if s, ok := v.(string); ok && planast.TextHolds(s, planast.CastFloat) {
			vals = append(vals, s)
		}
	}
	for _, a := range vals {
		for _, b := range vals {
			fa, _ := strconv.ParseFloat(strings.TrimSpace(a), 64)
			fb, _ := strconv.ParseFloat(strings.TrimSpace(b), 64)
			if a > b && fa < fb {
				return a, b
			}
		}
	}
	return "999", "1000"
}

// textOrderIsNumeric reports whether the profile holds every value of a
// text column, each a number, and text orders them as their numbers (one
// width, or one shape such as '1.5' and '2.5'): then MIN, MAX and an
// order_by of the text are those of the numbers.
func textOrderIsNumeric(p *schema.ColumnProfile) bool {
	if p == nil || !p.AllValues || len(p.SampleValues) == 0 {
		return false
	}
	type pair struct {
		text string
		n    float64
	}
	var vals []pair
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok || !planast.TextHolds(s, planast.CastFloat) {
			return false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return false
		}
		vals = append(vals, pair{s, f})
	}
	slices.SortFunc(vals, func(a, b pair) int { return strings.Compare(a.text, b.text) })
	return slices.IsSortedFunc(vals, func(a, b pair) int { return cmp.Compare(a.n, b.n) })
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

// TextOrderProbes are the probes of plan's warnings of MIN or MAX of
// numbers written as text whose profile does not hold every value (see
// textAmountOrders), the first MaxTextOrderProbes: each counts, over the
// rows the aggregate reads, the text extreme, the numbers' extreme and
// the values a cast reads as no number. The warning is false where the
// text extreme is the numbers' (invoice numbers of one width), and its
// Verdict drops it then.
func TextOrderProbes(snap *schema.Snapshot, plan *planast.Query) []Reword {
	var out []Reword
	for _, fd := range textOrderFindings(snap, plan) {
		if len(out) == MaxTextOrderProbes {
			break
		}
		if fd.fn == "" || fd.q != plan && len(fd.q.With) > 0 {
			continue
		}
		probe, err := copyQuery(fd.q)
		if err != nil {
			continue
		}
		if fd.q != plan {
			outer, err := copyQuery(plan)
			if err != nil {
				continue
			}
			probe.With = outer.With
		}
		col := func() planast.Expr { return &planast.Column{Table: fd.ref.Table, Column: fd.ref.Column} }
		number := func() planast.Expr { return &planast.Cast{Expr: col(), Type: planast.CastDecimal} }
		probe.Select = []planast.SelectItem{
			{Expr: &planast.Func{Name: fd.fn, Args: []planast.Expr{col()}}, Alias: "text_extreme"},
			{Expr: &planast.Func{Name: fd.fn, Args: []planast.Expr{number()}}, Alias: "number_extreme"},
			{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{col()}}, Alias: "values_read"},
			{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{number()}}, Alias: "numbers_read"},
		}
		probe.GroupBy, probe.Having, probe.Qualify, probe.SetOps, probe.OrderBy = nil, nil, nil, nil, nil
		probe.Limit, probe.Offset, probe.WithTies, probe.Distinct = nil, nil, false, false
		w := fd.text()
		out = append(out, Reword{Warning: w, Query: probe, Verdict: func(row []any) (string, bool) {
			if len(row) != 4 {
				return w, true
			}
			values, ok1 := countValue(row[2])
			numbers, ok2 := countValue(row[3])
			if !ok1 || !ok2 {
				return w, true
			}
			if values == 0 {
				return "", false // no value read: NULL either way
			}
			text, ok3 := row[0].(string)
			t, err1 := strconv.ParseFloat(strings.TrimSpace(text), 64)
			n, err2 := strconv.ParseFloat(strings.TrimSpace(fmt.Sprint(row[1])), 64)
			if numbers == values && ok3 && err1 == nil && err2 == nil && t == n {
				return "", false // the text extreme is the numbers'
			}
			return w, true
		}})
	}
	return out
}

// MaxTextOrderProbes bounds the MIN and MAX of text numbers probed in one
// plan: each probe reads the aggregate's rows once more.
const MaxTextOrderProbes = 3

// Reword is the probe of one warning as Static words it (Warning): Query
// (validate and run it as the caller, like any other) returns one row,
// from which Verdict words the warning again (w) or drops it (keep
// false). A row it cannot read keeps the warning as it was.
type Reword struct {
	Warning string
	Query   *planast.Query
	Verdict func(row []any) (w string, keep bool)
}
