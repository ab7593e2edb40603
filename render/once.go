package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// A rendering names its operand as often as its rule needs (FROM_EPOCH_SECONDS
// tests the range twice and floors once more; a quarter label reads the
// year and the month), and an operand that is itself such a rendering was
// copied into each place: four levels of it made a one-line plan's SQL of
// 30 kB, which no one could read and every engine evaluated over and over.
// A function whose rendering names a long operand (longer than
// longOperand, and not a literal, which a rendering may read) more than
// once names it once, through the scalar subquery over a one-row derived
// table the cast of text uses (textcast.go):
//
//	(SELECT <rendering over "arg1"> FROM (SELECT <operand> AS "arg1") AS "once")
//
// Its FROM is empty, so the operand reads the outer row; a nested binding
// of the same name is the innermost one's, as SQL scopes it.

// longOperand is the length past which an operand is named once: the
// cast of text tests its operand up to thirty times, and the date a plan
// reorders with SUBSTR and CONCAT (a few hundred bytes) made a short
// plan's SQL of 26 to 39 kB, too long to show beside its rows.
const longOperand = 80

// bindArg is the placeholder for operand i while a rendering is written.
func bindArg(i int) string { return QuoteIdent("arg" + strconv.Itoa(i+1)) }

// once renders with args through render, binding each long operand that
// the rendering names more than once and bindable(i) allows; bindable is
// asked of long operands alone (most are short, and nothing is copied
// for them).
func once(args []string, bindable func(i int) bool, render func([]string) string) string {
	var held []string
	for i, a := range args {
		if len(a) > longOperand && bindable(i) {
			if held == nil {
				held = slices.Clone(args)
			}
			held[i] = bindArg(i)
		}
	}
	if held == nil {
		return render(args)
	}
	body := render(held)
	var back, binds []string
	for i, a := range args {
		if held[i] == a {
			continue
		}
		if strings.Count(body, held[i]) > 1 {
			binds = append(binds, a+" AS "+held[i])
		} else {
			back = append(back, held[i], a)
		}
	}
	// one pass, so an operand's own text is never read for placeholders
	body = strings.NewReplacer(back...).Replace(body)
	if len(binds) == 0 {
		return body
	}
	return "(SELECT " + body + " FROM (SELECT " + strings.Join(binds, ", ") + `) AS "once")`
}

// bindable reports whether a call's argument a may be bound. Not a
// literal, which a rendering may read; not in a grouped query's output
// (its select list, grouping keys, HAVING and ORDER BY), where the engines
// match an expression of the grouping keys by its text, and a key named
// inside a subquery reads as an ungrouped column (an operand holding an
// aggregate is in one); not an operand holding a window, which the
// derived table would compute over its own one row.
func (w *writer) bindable(a planast.Expr) bool {
	_, lit := a.(*planast.Literal)
	return !lit && !w.grouped && !planast.ContainsWindow(a)
}

// selectedGroupKeys are the planast.Key of q's grouping keys that are
// also select items. Such a key is written the same way (binding its
// operands) wherever it stands, in the select list, GROUP BY (by its
// position when long), HAVING and ORDER BY, so the engines match it whole:
// a month of Unix times read from text, grouped, was 63 kB of SQL a copy.
func selectedGroupKeys(q *planast.Query) map[string]bool {
	if !slices.ContainsFunc(q.GroupBy, func(g planast.Expr) bool {
		_, col := g.(*planast.Column)
		return !col
	}) {
		return nil
	}
	sel := map[string]bool{}
	for _, it := range q.Select {
		sel[planast.Key(it.Expr)] = true
	}
	var out map[string]bool
	for _, g := range q.GroupBy {
		switch g.(type) {
		case *planast.Column, *planast.Literal:
			// no operand to bind, and written alike everywhere: most keys
			// are columns, and no node need be keyed for them
			continue
		}
		if k := planast.Key(g); sel[k] {
			if out == nil {
				out = map[string]bool{}
			}
			out[k] = true
		}
	}
	return out
}

// groupedQuery reports whether q's output is computed per group.
func groupedQuery(q *planast.Query) bool {
	if len(q.GroupBy) > 0 || q.Having != nil {
		return true
	}
	for _, it := range q.Select {
		if planast.ContainsAggregate(it.Expr) {
			return true
		}
	}
	return false
}
