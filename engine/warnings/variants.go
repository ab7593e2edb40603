package warnings

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// variantLiterals explain filters that match one spelling of a value the
// column holds in several: status = 'paid' where the column also stores
// 'Paid' and 'paid ' (equal once folded: letter case, surrounding spaces,
// accents, the form of apostrophes and dashes). The result is not empty
// and looks right, yet the rows of the other spellings are left out (or,
// under != and NOT IN, kept). Only a column whose values are all known is
// judged, so every variant is named. When a folded variant proves that
// the column was typed by hand, values spelled nearly alike by
// planast.Near's rule ('payed') are named too; without that proof a near
// spelling is more likely another value ('Anna' and 'Anne'). Values with
// digits never count as near: 2017 is not a misspelling of 2018. The fix
// is the IN list of every spelling, written as plan JSON.
func variantLiterals(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	seen := map[string]bool{}
	literalComparisons(plan, func(q *planast.Query, x, lit planast.Expr, op string, list []planast.Expr) {
		if w := variantLiteral(snap, q, x, lit, op, list, stored); w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	})
	return out
}

// maxVariants is how many other spellings a warning names.
const maxVariants = 6

// variantLiteral is variantLiterals' check of one comparison x op
// pattern (=, !=, IN or NOT IN, items the IN's list); "" when x is
// no text column of q, its values are not all known, the literal is not
// one of them, or no other value is a variant of it.
func variantLiteral(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr, op string, items []planast.Expr, stored func(string, string, string) []string) string {
	t, c, lit := textFilter(snap, q, x, pattern)
	if c == nil {
		return ""
	}
	vals, all := knownValues(t, c, stored)
	if !all || !slices.Contains(vals, lit.Text) {
		return ""
	}
	listed := map[string]bool{}
	for _, l := range items {
		if sl, ok := l.(*planast.Literal); ok && sl.Type == planast.TString {
			listed[sl.Text] = true // an IN that names a spelling takes it
		}
	}
	variants, short, how := spellingVariants(lit.Text, vals, listed)
	if len(variants) == 0 && (len(short) == 0 || op != "=") {
		return ""
	}
	if len(variants) == 0 {
		return fmt.Sprintf("%q %s %q matches that spelling only, but the column also stores %s%s", c.Name, op, lit.Text, someQuoted(firsts(short)), abbreviationNote(short))
	}
	negated := op == "!=" || op == "NOT IN"
	effect, verb := "their rows are left out", "matches"
	if negated {
		effect, verb = "their rows are kept", "excludes"
	}
	// an IN keeps the spellings it lists: the fix adds the others to them,
	// and one warning speaks for the whole list (a warning per item, each
	// offering its own two values, read as "keep only these two")
	kept := []string{lit.Text}
	what, from := fmt.Sprintf("%q %s %q %s that spelling only", c.Name, op, lit.Text, verb), fmt.Sprintf("%q", lit.Text)
	if op == "IN" || op == "NOT IN" {
		from = "them"
		kept = kept[:0]
		for _, l := range items {
			if sl, ok := l.(*planast.Literal); ok && sl.Type == planast.TString && !slices.Contains(kept, sl.Text) {
				kept = append(kept, sl.Text)
			}
		}
		what = fmt.Sprintf("%q %s (%s) %s those spellings only", c.Name, op, someQuoted(kept), verb)
	}
	list := make([]string, 0, len(kept)+len(variants))
	for _, v := range append(slices.Clone(kept), variants...) {
		list = append(list, fmt.Sprintf(`{"kind": "literal", "value": %s}`, jsonText(v)))
	}
	ref := x.(*planast.Column)
	colJSON := fmt.Sprintf(`{"kind": "column", "table": %s, "column": %s}`, jsonText(ref.Table), jsonText(ref.Column))
	neg := ""
	if negated {
		neg = `, "negated": true`
	}
	return fmt.Sprintf(`%s, but the column also stores %s, which differ from %s %s: %s unless the question means those exact spellings; to take every spelling use {"kind": "in", "expr": %s, "list": [%s]%s}%s`,
		what, someQuoted(variants), from, how, effect, colJSON, strings.Join(list, ", "), neg, abbreviationNote(short))
}

// spellingVariants are the values of vals (every one a column stores)
// that a filter keeping value leaves out though they are likely value
// itself, the one rule for a plan's filter (variantLiteral) and a
// verified query's argument (otherSpellings): those equal to it once
// folded (spelledAs), and then, as the column was proved typed by hand
// (by those, or by another value's several spellings: messy), those
// spelled nearly alike (nearlyAlike: 'payed'), at most maxVariants;
// in a column of flags, the other spellings of its truth. short are the
// values short for it ('Pd' of 'paid'), and how says how variants differ
// from it. listed are the values the filter names besides value (an IN's
// list), which are neither.
func spellingVariants(value string, vals []string, listed map[string]bool) (variants []string, short [][2]string, how string) {
	vals = slices.Compact(slices.Sorted(slices.Values(vals)))
	truth, flag := textTruths(vals)
	vals = slices.DeleteFunc(vals, func(v string) bool { return listed[v] && v != value })
	want := spelling(value)
	same, others := spelledAs(value, vals)
	for _, p := range abbreviationsOf(vals, maxVariants) {
		if spelling(p[1]) == want && !listed[p[0]] && p[0] != value {
			short = append(short, p)
		}
	}
	if flag {
		// a column of flags ('1', 'true', 'yes', '0', 'no'): each other
		// spelling of the value's truth is a variant of it ('y' is one,
		// not short for 'yes'), and each of the other truth another value
		same, others, short = same[:0], nil, nil
		for _, v := range vals {
			if v != value && truth[v] == truth[value] {
				same = append(same, v)
			}
		}
	}
	if len(same) == 0 && (flag || !messy(vals)) {
		return nil, short, ""
	}
	// near spellings count once the column is proved typed by hand: by
	// the value's own other spellings, or by another value's ('Delivered'
	// beside 'delivered' where 'canceled' stands beside 'cancelled')
	variants = append(same, nearlyAlike(value, others)...)
	if len(variants) == 0 {
		return nil, short, ""
	}
	if len(variants) > maxVariants {
		variants = variants[:maxVariants]
	}
	how = "only in letter case, spaces, accents or punctuation"
	if flag {
		how = "only in how they write " + truthName(truth[value])
	} else if len(variants) > len(same) {
		how = "only in letter case, spaces, accents or punctuation, or spelled nearly alike"
	}
	return variants, short, how
}

// spelledAs splits the values of vals other than value into those that
// differ from it only in letter case, spaces, accents or punctuation
// (spelling) and the others, in vals' order.
func spelledAs(value string, vals []string) (same, others []string) {
	want := spelling(value)
	for _, v := range vals {
		switch {
		case v == value:
		case spelling(v) == want:
			same = append(same, v)
		default:
			others = append(others, v)
		}
	}
	return same, others
}

// nearlyAlike is the values of others spelled nearly alike word
// (planast.Near), as a misspelling of it: neither holds a digit, both
// begin alike (samePrefix), and each is three letters or more, as a code
// of one or two ('CO', 'N') is an abbreviation of its own, not a
// misspelling ('CO', checked out, offered as a spelling of 'conf' made
// 1,153 stays confirmed bookings).
func nearlyAlike(word string, others []string) []string {
	var out []string
	if hasDigit(word) || utf8.RuneCountInString(strings.TrimSpace(word)) < 3 {
		return nil
	}
	for _, v := range planast.Near(word, others) {
		if !hasDigit(v) && samePrefix(word, v) && utf8.RuneCountInString(strings.TrimSpace(v)) >= 3 {
			out = append(out, v)
		}
	}
	return out
}

// samePrefix reports whether a and b begin with the same two letters once
// folded: a misspelling keeps its word's start ('payed', 'paid';
// 'canceled', 'cancelled'), while another short word two edits away does
// not ('void' is two edits from 'paid': offered as a spelling of it, it
// counted void invoices as paid revenue).
func samePrefix(a, b string) bool {
	ra, rb := []rune(folded(a)), []rune(folded(b))
	return len(ra) >= 2 && len(rb) >= 2 && ra[0] == rb[0] && ra[1] == rb[1]
}

// hasDigit reports whether s holds a digit: codes and years differ by one
// digit from their neighbours without being misspellings of them.
func hasDigit(s string) bool { return strings.ContainsFunc(s, unicode.IsDigit) }

// jsonText is s as a JSON string.
func jsonText(s string) string {
	b, _ := planast.JSON(s)
	return string(b)
}

// literalComparisons calls f for each comparison of an expression with a
// literal in the plan, at any depth: x = lit and x != lit (either side),
// and each item of an IN or NOT IN list, with op "=", "!=", "IN" or
// "NOT IN" and, for an IN, its list.
func literalComparisons(plan *planast.Query, f func(q *planast.Query, x, lit planast.Expr, op string, list []planast.Expr)) {
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		inspectQuery(q, func(e planast.Expr) {
			switch x := e.(type) {
			case *planast.Binary:
				if x.Op == "=" || x.Op == "!=" {
					if col, lits := emptyrange.ColumnAndLiterals(x.Left, x.Right); col != nil {
						f(q, col, lits[0], x.Op, nil)
					}
				}
			case *planast.In:
				op := "IN"
				if x.Negated {
					op = "NOT IN"
				}
				for _, l := range x.List {
					f(q, x.Expr, l, op, x.List)
				}
			}
		})
		return true
	})
}

// splitGroups explain a GROUP BY on a text column whose values are all
// known and among which some are one value spelled several ways
// ('Germany', 'germany ', 'GERMANY'): each spelling is a group of its own,
// so a count per country shows Germany two or three times, each with part
// of its rows, and "the country with the most customers" can be the wrong
// one. The fix groups by LOWER and TRIM of the column, as the differences
// need, when they are letter case and spaces alone.
func splitGroups(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, g := range q.GroupBy {
			x := groupedExpr(q, g)
			if ref, clean := cleaned(x); ref != nil {
				if c, vals := groupValues(snap, q, ref, stored); c != nil {
					if w := cleanedSplit(x, vals, clean, "grouping by %s still makes a group of each spelling of one value: %s are separate groups%s, each with part of the rows", "to merge them, select and group by ", true); w != "" {
						out = append(out, w)
					}
				}
				continue
			}
			ref, ok := x.(*planast.Column)
			if !ok {
				continue
			}
			c, vals := groupValues(snap, q, ref, stored)
			if c == nil {
				continue
			}
			if w := splitGroup(ref, c, vals); w != "" {
				out = append(out, w)
			}
		}
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || !f.Distinct || !strings.EqualFold(f.Name, "COUNT") || len(f.Args) != 1 {
				return
			}
			if ref, clean := cleaned(f.Args[0]); ref != nil {
				t, c := emptyrange.TableOfColumn(snap, q, ref)
				if c == nil || !textual(c) {
					return
				}
				if vals, all := knownValues(t, c, stored); all {
					if w := cleanedSplit(f.Args[0], vals, clean, "COUNT(DISTINCT %s) still counts each spelling of one value: %s count apart%s", "to count values, not spellings, count distinct ", false); w != "" && !slices.Contains(out, w) {
						out = append(out, w)
					}
				}
				return
			}
			ref, ok := f.Args[0].(*planast.Column)
			if !ok {
				return
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || !textual(c) {
				return
			}
			if vals, all := knownValues(t, c, stored); all {
				if w := distinctSpellings(ref, vals); w != "" && !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		})
		return true
	})
	return out
}

// groupValues is the text column ref reads as a GROUP BY item of q and
// its values, when the profile knows them all; nil when ref is no such
// column, or q groups by its table's whole key (each group one row).
func groupValues(snap *schema.Snapshot, q *planast.Query, ref *planast.Column, stored func(string, string, string) []string) (*schema.Column, []string) {
	t, c := emptyrange.TableOfColumn(snap, q, ref)
	if c == nil || !textual(c) || groupsByKey(snap, q, ref.Table) {
		return nil, nil
	}
	vals, all := knownValues(t, c, stored)
	if !all {
		return nil, nil
	}
	return c, vals
}

// groupsByKey reports whether q groups by the whole primary key of the
// table under alias: each group is then one row of that table, and two
// spellings of a name ('Luis Costa', 'Luís Costa') are two people, not
// one value split in two.
func groupsByKey(snap *schema.Snapshot, q *planast.Query, alias string) bool {
	var key []string
	for _, f := range q.From {
		if f.Alias == alias && f.Subquery == nil {
			if t, ok := snap.Lookup(f.Schema, f.Table); ok {
				key = t.PrimaryKey
			}
		}
	}
	if len(key) == 0 {
		return false
	}
	for _, k := range key {
		found := false
		for _, g := range q.GroupBy {
			if c, ok := groupedExpr(q, g).(*planast.Column); ok && c.Table == alias && strings.EqualFold(c.Column, k) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// cleanedSplit is the check of an expression x that cleans a column
// (LOWER, UPPER, TRIM: clean) over the column's complete values vals: the
// values it still writes apart ('hot desk' and 'hot-desk', 'm001' and
// 'm-001' in a column of codes written several ways), said with format
// (x, the values, a note of more), and the expression that merges them.
func cleanedSplit(x planast.Expr, vals []string, clean func(string) string, format, merge string, groups bool) string {
	xs, err := planast.JSON(x)
	if err != nil {
		return ""
	}
	cv := make([]string, len(vals))
	for i, v := range vals {
		cv[i] = clean(v)
	}
	first, more, fix, left := spellingsOf(string(xs), cv, messy(vals), false)
	if first == nil {
		return ""
	}
	w := fmt.Sprintf(format, xs, someQuoted(first), more)
	if fix == "" {
		return w + "; map them to one with a case expression"
	}
	if !groups {
		left = ""
	}
	return w + left + "; " + merge + fix
}

// splitGroup is splitGroups' check of one column's complete values.
func splitGroup(ref *planast.Column, c *schema.Column, vals []string) string {
	return spellingsWarning(ref, vals, func(first []string, more string) string {
		return fmt.Sprintf("grouping by %q makes a group of each spelling of one value: %s are separate groups%s, each with part of the rows", c.Name, someQuoted(first), more)
	}, "group by a cleaned value where a plan can write one", "to merge them, select and group by ", true)
}

// distinctSpellings is the check of COUNT(DISTINCT ref) over a column's
// complete values: each spelling of one value counts once.
func distinctSpellings(ref *planast.Column, vals []string) string {
	return spellingsWarning(ref, vals, func(first []string, more string) string {
		return fmt.Sprintf("COUNT(DISTINCT %s.%s) counts each spelling of one value: %s count as %d%s", ref.Table, ref.Column, someQuoted(first), len(first), more)
	}, "count a cleaned value where a plan can write one", "to count values, not spellings, count distinct ", false)
}

// spellingsWarning says what values spelled several ways do (said), and
// the fix: the expression that merges them after merge, or cleaned when
// LOWER and TRIM cannot; for a grouping (groups), the values the fix
// leaves apart.
func spellingsWarning(ref *planast.Column, vals []string, said func(first []string, more string) string, cleaned, merge string, groups bool) string {
	first, more, x, left := spellings(ref, vals)
	if first == nil {
		return ""
	}
	if !groups {
		left = "" // a count's fix is pasted whole: the values left apart are the grouping's concern
	}
	short := abbreviationNote(abbreviationsOf(vals, maxVariants))
	if x != "" {
		return said(first, more) + left + "; " + merge + x + short
	}
	return said(first, more) + "; " + cleaned + short
}

// spellings finds the values of vals spelled several ways (by letter
// case, surrounding spaces, punctuation or word separators: spelling):
// the first such set, a note of how many more there are, and the
// expression of ref that merges them ("" when punctuation other than word
// separators differs, which LOWER, TRIM and REPLACE of a separator cannot
// merge). first is nil when every value has one spelling.
func spellings(ref *planast.Column, vals []string) (first []string, more, fix, left string) {
	col := fmt.Sprintf(`{"kind": "column", "table": %s, "column": %s}`, jsonText(ref.Table), jsonText(ref.Column))
	if first, more, fix := truthSpellings(col, vals); first != nil {
		return first, more, fix, ""
	}
	return spellingsOf(col, vals, messy(vals), true)
}

// truthSpellings is spellings of a column of flags ('1', 'true', 'yes',
// '0', 'no': textTruths): the spellings of true when there are several,
// else those of false, a note of the other truth's, and the test that
// reads each as the boolean it writes (the column IN the spellings of
// true: true, false, or NULL for NULL), which no LOWER or TRIM merges.
// first is nil when the column is no such flag or writes each truth one
// way.
func truthSpellings(col string, vals []string) (first []string, more, fix string) {
	vals = slices.Clone(vals)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	truth, ok := textTruths(vals)
	if !ok {
		return nil, "", ""
	}
	var yes, no []string
	for _, v := range vals {
		if truth[v] {
			yes = append(yes, v)
		} else {
			no = append(no, v)
		}
	}
	first, other, name := yes, no, "false"
	if len(yes) < 2 {
		first, other, name = no, yes, "true"
	}
	if len(first) < 2 {
		return nil, "", ""
	}
	if len(other) > 1 {
		more = fmt.Sprintf(" (and %s, which write %s)", someQuoted(other), name)
	}
	spelt, neg := yes, ""
	if len(yes) == 0 {
		// a column that writes false alone: not one of its spellings
		spelt, neg = no, `, "negated": true`
	}
	list := make([]string, len(spelt))
	for i, v := range spelt {
		list[i] = fmt.Sprintf(`{"kind": "literal", "value": %s}`, jsonText(v))
	}
	return first, more, fmt.Sprintf(`{"kind": "in", "expr": %s, "list": [%s]%s}`, col, strings.Join(list, ", "), neg)
}

// messy reports whether vals write some value several ways by letter
// case or surrounding spaces ('M001', 'm001', 'M001 '): in such a column a
// code's separators between letters and digits are one more way to write
// it ('M-001'), where in a tidy one 'A-12' and 'A12' may well be two.
func messy(vals []string) bool {
	seen := make(map[string]string, len(vals))
	for _, v := range vals {
		if o, ok := seen[folded(v)]; ok && o != v {
			return true
		}
		seen[folded(v)] = v
	}
	return false
}

// spellingsOf is spellings of the values vals of the expression x (plan
// JSON): codes loose when the column is messy; raw says whether vals are
// the column's own values (the fix may then add TRIM and LOWER) or those
// of x, which already cleaned them. left is remainNote of the values
// the fix still writes apart.
func spellingsOf(x string, vals []string, codesLoose, raw bool) (first []string, more, fix, left string) {
	vals = slices.Clone(vals)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	key := spelling
	if codesLoose {
		key = spellingLoose
	}
	folds := make([]string, len(vals))
	distinct := make(map[string]struct{}, len(vals))
	for i, v := range vals {
		folds[i] = key(v)
		distinct[folds[i]] = struct{}{}
	}
	if len(distinct) == len(vals) {
		return nil, "", "", "" // each value folds to its own: no value spelled two ways
	}
	byFold := map[string][]string{}
	var order []string
	for i, v := range vals {
		f := folds[i]
		if len(byFold[f]) == 0 {
			order = append(order, f)
		}
		byFold[f] = append(byFold[f], v)
	}
	var split [][]string
	spaces, letters, other := false, false, false
	var seps []string
	for _, f := range order {
		g := byFold[f]
		if len(g) < 2 {
			continue
		}
		split = append(split, g)
		for _, v := range g[1:] {
			spaces = spaces || strings.ToLower(v) != strings.ToLower(g[0])
			letters = letters || strings.TrimSpace(v) != strings.TrimSpace(g[0])
			if loose(v) != loose(g[0]) {
				for _, v := range g {
					for _, r := range " _-." {
						if strings.ContainsRune(strings.TrimSpace(v), r) && !slices.Contains(seps, string(r)) {
							seps = append(seps, string(r))
						}
					}
				}
				other = other || unseparated(v, seps) != unseparated(g[0], seps)
			}
		}
	}
	if len(split) == 0 {
		return nil, "", "", ""
	}
	if len(split) > 1 {
		more = fmt.Sprintf(" (and %d more values spelled several ways)", len(split)-1)
	}
	if other {
		return split[0], more, "", ""
	}
	if raw {
		x = foldedExpr(x, spaces, letters)
	} else {
		spaces, letters = false, false // x cleaned them already
	}
	// a word separator written or not ('hot-desk', 'hot desk', 'M-001'):
	// removed from every value, which then compare alike
	slices.Sort(seps)
	for _, sep := range seps {
		x = fmt.Sprintf(`{"kind": "func", "name": "REPLACE", "args": [%s, {"kind": "literal", "value": %s}, {"kind": "literal", "value": ""}]}`, x, jsonText(sep))
	}
	return split[0], more, x, remainNote(vals, spaces, letters, seps)
}

// maxRemaining is how many of the values a fold leaves apart remainNote
// names.
const maxRemaining = 10

// remainNote says which different values vals still hold once folded as
// the fix folds them (TRIM when spaces, LOWER when letters, each of seps
// removed): the fix merges spellings only, and a host that follows it to
// the letter, with approved/Approved/accepted and denied/DECLINED stored,
// still reports 'accepted' apart from 'approved'. Whether two words mean
// the same is the host's call, so the note names them and says how to
// merge them, without calling them synonyms. "" when one value remains.
func remainNote(vals []string, spaces, letters bool, seps []string) string {
	var left []string
	for _, v := range vals {
		if spaces {
			v = strings.TrimSpace(v)
		}
		if letters {
			v = strings.ToLower(v)
		}
		for _, sep := range seps {
			v = strings.ReplaceAll(v, sep, "")
		}
		if !slices.Contains(left, v) {
			left = append(left, v)
		}
	}
	if len(left) < 2 {
		return ""
	}
	slices.Sort(left)
	var funcs, what []string
	if spaces {
		funcs, what = append(funcs, "TRIM"), append(what, "surrounding spaces")
	}
	if letters {
		funcs, what = append(funcs, "LOWER"), append(what, "letter case")
	}
	if len(seps) > 0 {
		funcs, what = append(funcs, "REPLACE"), append(what, "separators")
	}
	if len(funcs) == 0 {
		return ""
	}
	verb, it := "merges", "it"
	if len(funcs) > 1 {
		verb, it = "merge", "them"
	}
	quoted := make([]string, 0, maxRemaining)
	for _, v := range left[:min(len(left), maxRemaining)] {
		quoted = append(quoted, fmt.Sprintf("%q", v))
	}
	if len(left) > maxRemaining {
		quoted = append(quoted, fmt.Sprintf("and %d more", len(left)-maxRemaining))
	}
	return fmt.Sprintf("; %s, below, %s %s only: %d different values remain after %s (%s): if some of them mean the same, map them to one with a case expression",
		strings.Join(funcs, " and "), verb, strings.Join(what, " and "), len(left), it, strings.Join(quoted, ", "))
}

// unseparated is loose(v) without the separators seps.
func unseparated(v string, seps []string) string {
	v = loose(v)
	for _, s := range seps {
		v = strings.ReplaceAll(v, s, "")
	}
	return v
}
