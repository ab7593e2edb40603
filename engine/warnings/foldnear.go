package warnings

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// foldNearMisses explain a comparison of a column cleaned by LOWER, UPPER
// or TRIM with a literal (LOWER(TRIM(status)) = 'delivered', the merge a
// spelling warning itself suggests) while the column also stores values
// spelled nearly alike ('delivred'), which no change of case or spaces
// merges: their rows are left out and nothing said so once the plan
// folded. The stored values must all be known; the literal must match
// some of them once folded; near means what variantLiteral means by it
// (an edit or two, the same first two letters, no digits). The fix lists
// the near spellings as the cleaned expression writes them.
func foldNearMisses(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	seen := map[string]bool{}
	eachQuery(plan, func(q *planast.Query) {
		relabels := relabelled(q)
		inspectQuery(q, func(e planast.Expr) {
			var x planast.Expr
			var lits []planast.Expr
			op := ""
			switch b := e.(type) {
			case *planast.Binary:
				if b.Op != "=" && b.Op != "!=" {
					return
				}
				x, lits, op = b.Left, []planast.Expr{b.Right}, b.Op
				if _, ok := b.Left.(*planast.Literal); ok {
					x, lits[0] = b.Right, b.Left
				}
			case *planast.In:
				x, lits, op = b.Expr, slices.Clone(b.List), "IN"
				if b.Negated {
					op = "NOT IN"
				}
			default:
				return
			}
			lits = append(lits, relabels[e]...)
			ref, clean := cleaned(x)
			if ref == nil {
				return
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || !textual(c) || namesOf(c.Name) {
				return
			}
			vals, all := knownValues(t, c, stored)
			if !all {
				return
			}
			if w := cleanedApart(ref, x, op, lits, vals, clean); w != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
			if w := foldNearMiss(x, op, lits, vals, clean); w != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		})
	})
	return out
}

// relabelled maps each condition of a CASE arm of q (one without an
// operand) whose result is a string literal to that literal: CASE WHEN
// LOWER(TRIM(status)) = 'canceled' THEN 'cancelled' … names the spelling
// it maps the compared one to, and a comparison that merges two spellings
// so leaves neither apart.
func relabelled(q *planast.Query) map[planast.Expr][]planast.Expr {
	out := map[planast.Expr][]planast.Expr{}
	inspectQuery(q, func(e planast.Expr) {
		c, ok := e.(*planast.Case)
		if !ok || c.Operand != nil {
			return
		}
		for _, w := range c.Whens {
			if lit, ok := w.Then.(*planast.Literal); ok && lit.Type == planast.TString {
				out[w.When] = append(out[w.When], lit)
			}
		}
	})
	return out
}

// cleanedApart is the values a comparison of a column cleaned only in
// part leaves apart: LOWER(status) = 'completed' beside a stored
// 'completed ' (LOWER keeps the space), TRIM(species) = 'dog' beside
// 'Dog'. Those differ from a literal in letter case and surrounding
// spaces alone, which LOWER(TRIM(x)) merges; the fix says so. Models
// write LOWER(x) = '…' often, and its undercount came with no word.
func cleanedApart(ref *planast.Column, x planast.Expr, op string, lits []planast.Expr, vals []string, clean func(string) string) string {
	var kept, apart []string
	for _, l := range lits {
		if lit, ok := l.(*planast.Literal); ok && lit.Type == planast.TString && !slices.Contains(kept, lit.Text) {
			kept = append(kept, lit.Text)
		}
	}
	for _, lit := range kept {
		for _, v := range vals {
			if cv := clean(v); cv != lit && !slices.Contains(kept, cv) && loose(v) == loose(lit) && !slices.Contains(apart, v) {
				apart = append(apart, v)
			}
		}
	}
	if len(apart) == 0 {
		return ""
	}
	slices.Sort(apart)
	expr, err := planast.JSON(x)
	if err != nil {
		return ""
	}
	effect := "their rows are left out"
	if op == "!=" || op == "NOT IN" {
		effect = "their rows are kept"
	}
	col := fmt.Sprintf(`{"kind": "column", "table": %s, "column": %s}`, jsonText(ref.Table), jsonText(ref.Column))
	list := make([]string, 0, len(kept))
	for _, lit := range kept {
		list = append(list, jsonText(loose(lit)))
	}
	return fmt.Sprintf(`%s %s %s leaves apart the stored %s, which differ from it only in letter case or surrounding spaces that this cleaning does not remove: %s; to take every spelling compare %s with %s`,
		expr, op, someQuoted(kept), someQuoted(apart), effect, foldedExpr(col, true, true), strings.Join(list, ", "))
}

// foldNearMiss is foldNearMisses' check of one comparison x op lits.
func foldNearMiss(x planast.Expr, op string, lits []planast.Expr, vals []string, clean func(string) string) string {
	var kept []string
	for _, l := range lits {
		if lit, ok := l.(*planast.Literal); ok && lit.Type == planast.TString && !slices.Contains(kept, lit.Text) {
			kept = append(kept, lit.Text)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	var near []string
	for _, lit := range kept {
		matched := false
		var others []string
		for _, v := range vals {
			switch cv := clean(v); {
			case cv == lit:
				matched = true
			case !slices.Contains(kept, cv) && loose(v) != loose(lit):
				others = append(others, v)
			}
		}
		if !matched {
			continue
		}
		for _, v := range nearlyAlike(lit, others) {
			if !slices.Contains(near, v) {
				near = append(near, v)
			}
		}
	}
	if len(near) == 0 {
		return ""
	}
	slices.Sort(near)
	near = near[:min(len(near), maxVariants)]
	effect := "their rows are left out"
	if op == "!=" || op == "NOT IN" {
		effect = "their rows are kept"
	}
	expr, err := planast.JSON(x)
	if err != nil {
		return ""
	}
	list := make([]string, 0, len(kept)+len(near))
	for _, v := range append(slices.Clone(kept), near...) {
		list = append(list, fmt.Sprintf(`{"kind": "literal", "value": %s}`, jsonText(clean(v))))
	}
	list = slices.Compact(list)
	neg := ""
	if op == "!=" || op == "NOT IN" {
		neg = `, "negated": true`
	}
	return fmt.Sprintf(`the comparison of a cleaned column with %s merges letter case and spaces, but the column also stores %s, spelled nearly alike, which no cleaning of case or spaces merges: %s unless the question means the exact spelling; to take them too use {"kind": "in", "expr": %s, "list": [%s]%s}`,
		someQuoted(kept), someQuoted(near), effect, expr, strings.Join(list, ", "), neg)
}

// nearGroups explain a GROUP BY of a text column, bare or cleaned with
// LOWER, UPPER or TRIM, whose known values hold two spelled nearly alike
// that neither the cleaning nor the spelling rule merges ('canceled' and
// 'cancelled', 'delivred' and 'delivered'): each is a group of its own,
// with part of one value's rows, after a plan did what the split-group
// warning advised (GROUP BY LOWER(status)). Near means what it means to
// variantLiteral, and as there only in a column that writes some value
// several ways. Groups by the table's whole key are left out.
func nearGroups(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for _, g := range q.GroupBy {
			x := groupedExpr(q, g)
			ref, clean := cleaned(x)
			if ref == nil {
				if ref, _ = x.(*planast.Column); ref == nil {
					continue
				}
				// the split-group warning says how to merge case and
				// spaces: the pairs are those that cleaning leaves apart
				clean = loose
			}
			c, vals := groupValues(snap, q, ref, stored)
			if c == nil || namesOf(c.Name) {
				continue
			}
			// only a column that writes some value several ways: names
			// and places spelled nearly alike ('Austria', 'Australia')
			// are different values in a column written one way
			groups, spelt, messy := map[string]bool{}, map[string]string{}, false
			for _, v := range vals {
				groups[clean(v)] = true
				if o, ok := spelt[spelling(v)]; ok && o != v {
					messy = true
				}
				spelt[spelling(v)] = v
			}
			if !messy {
				continue
			}
			keys := slices.Sorted(maps.Keys(groups))
			var pairs []string
			for i, a := range keys {
				for _, b := range nearlyAlike(a, keys[i+1:]) {
					if spelling(a) != spelling(b) {
						pairs = append(pairs, fmt.Sprintf("%q and %q", a, b))
					}
				}
			}
			if len(pairs) == 0 {
				continue
			}
			expr, _ := planast.JSON(x)
			out = append(out, fmt.Sprintf("grouping by %s makes groups of values spelled nearly alike: %s are separate groups, each with part of one value's rows unless they are different values; map them to one with a case expression before grouping",
				expr, strings.Join(pairs[:min(len(pairs), maxVariants)], ", ")))
		}
	})
	return out
}

// namesOf reports whether a column's name says it holds names
// (first_name, surname, hotel_name) or places (city, town, country,
// county, address: words of the name, so capacity is no city): names
// spelled nearly alike ('Lucas', 'Lukas'; 'Marco', 'Marie'; the towns
// 'Ada' and 'Adrian', 'Alameda' and 'Alamosa') are different people and
// places, not one value misspelled, and calling them so taught a host to
// skip the warnings that were right.
func namesOf(column string) bool {
	n := strings.ToLower(column)
	if strings.Contains(n, "name") || n == "forename" {
		return true
	}
	for _, w := range lex.SplitWords(column) {
		switch lex.Singular(w) {
		case "city", "town", "village", "suburb", "county", "country", "province", "address", "street":
			return true
		}
	}
	return false
}

// cleaned is the column x reads through LOWER, UPPER and TRIM (at least
// one of them), and what those do to a value; nil when x is anything else.
func cleaned(x planast.Expr) (*planast.Column, func(string) string) {
	var steps []func(string) string
	for {
		switch e := x.(type) {
		case *planast.Column:
			if len(steps) == 0 {
				return nil, nil
			}
			return e, func(s string) string {
				for i := len(steps) - 1; i >= 0; i-- {
					s = steps[i](s)
				}
				return s
			}
		case *planast.Func:
			if len(e.Args) != 1 {
				return nil, nil
			}
			switch strings.ToUpper(e.Name) {
			case "LOWER":
				steps = append(steps, strings.ToLower)
			case "UPPER":
				steps = append(steps, strings.ToUpper)
			case "TRIM":
				steps = append(steps, strings.TrimSpace)
			default:
				return nil, nil
			}
			x = e.Args[0]
		default:
			return nil, nil
		}
	}
}
