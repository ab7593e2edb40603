package warnings

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Run is what the warnings read of one run besides its plan.
type Run struct {
	Rows [][]any // the rows it returned
	// Stored, when set, lists the stored values of a text column (the
	// retrieval index's value list); nil when the caller may not see them
	// all (a row filter) or they are unknown.
	Stored func(schemaName, table, column string) []string
	// Static, when set, gives what Static gives of the same snapshot,
	// plan and stored values (a memo of them kept by the caller): a run
	// that returned rows earns those and its ties, and the same plan on
	// the same snapshot earns the same ones every time.
	Static func() []string
}

// matchedNothing reports whether the plan's filters matched no row: no
// rows came back, or the plan aggregates without grouping (one row always
// comes back) and every value of that row is 0 or NULL, as COUNT and SUM
// over nothing are. A count of 0 is the answer "none", and a host reads
// it as such; when a filter's value is misspelled that answer is wrong.
func matchedNothing(plan *planast.Query, rows [][]any) bool {
	if len(rows) == 0 {
		return true
	}
	return len(rows) == 1 && OneRow(plan) && zeroRow(rows[0])
}

// OneRow reports whether plan returns at most one row whatever the data:
// it aggregates without grouping (COUNT, SUM over a whole table or
// filter; a having may drop that row), so no row limit can cut it.
func OneRow(plan *planast.Query) bool {
	if len(plan.GroupBy) > 0 || len(plan.SetOps) > 0 || len(plan.Select) == 0 {
		return false
	}
	for _, it := range plan.Select {
		if !planast.ContainsAggregate(it.Expr) {
			return false
		}
	}
	return true
}

// zeroRow reports whether every value of row is 0 or NULL, as COUNT and
// SUM over nothing are.
func zeroRow(row []any) bool {
	for _, v := range row {
		switch x := v.(type) {
		case nil:
		case int64:
			if x != 0 {
				return false
			}
		case float64:
			if x != 0 {
				return false
			}
		case json.Number:
			if strings.Trim(x.String(), "0.-") != "" {
				return false
			}
		case string:
			if strings.Trim(x, "0.-") != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// spellingWarning explains a filter that matched nothing by a stored
// value spelled almost as the literal: the same text but for letter case,
// surrounding spaces, accents, the form of an apostrophe or Unicode
// composition ('O’Brien' against a stored "O'Brien", 'Siobhan' against
// 'Siobhán'). The stored values are the column's profile samples and,
// when known, every value the value index holds; "" when none is that
// close.
func spellingWarning(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr, stored func(string, string, string) []string) string {
	t, c, lit := textFilter(snap, q, x, pattern)
	if c == nil {
		return ""
	}
	vals, _ := knownValues(t, c, stored)
	if slices.Contains(vals, lit.Text) {
		// stored as written: the filter matched rows, or the others
		// matched none; a SUM of values a cast read as NULL is NULL too
		return ""
	}
	return spelledAlike(c, lit.Text, vals, true)
}

// spelledAlike is spellingWarning for text compared with column c of t;
// like says whether to suggest a case-insensitive like (a plan can use
// one).
func spelledAlike(c *schema.Column, text string, vals []string, like bool) string {
	lit := &planast.Literal{Text: text}
	want := folded(lit.Text)
	var near []string
	seen := map[string]bool{lit.Text: true}
	consider := func(v string) {
		if !seen[v] && folded(v) == want {
			seen[v] = true
			near = append(near, v)
		}
	}
	for _, v := range vals {
		consider(v)
	}
	if len(near) == 0 {
		return ""
	}
	how := howItDiffers(lit.Text, near[0])
	what := "the stored value " + someQuoted(near) + " differs"
	if len(near) > 1 {
		what = "the stored values " + someQuoted(near) + " differ"
	}
	compares, fix := "exactly", "compare with the stored value exactly as it is quoted here"
	if strings.HasPrefix(how, "only in letter case") {
		compares = "case-sensitively and exactly"
	}
	if strings.HasPrefix(how, "only in letter case") && like {
		compares, fix = "case-sensitively and exactly", `compare with the stored spelling (letter case alone: {"kind": "like", ..., "case_insensitive": true} with the value as pattern)`
	}
	return fmt.Sprintf(`no rows matched, and no stored value of %q is exactly %q: %s from it %s (= compares %s, on every engine); %s`, c.Name, lit.Text, what, how, compares, fix)
}

// ArgumentWarnings explains a verified query's text arguments: for each
// argument compared with = to a stored text column (args: parameter → its
// column and value), the other spellings of it the column stores (their
// rows left out), and, when the run matched nothing (rows), the stored
// value spelled almost as it or holding it, as for a plan's filter.
func ArgumentWarnings(snap *schema.Snapshot, rows [][]any, args []Argument, stored func(string, string, string) []string) []string {
	matched := len(rows) > 1 || len(rows) == 1 && !zeroRow(rows[0])
	var out []string
	for _, a := range args {
		t, ok := snap.Lookup(a.Schema, a.Table)
		if !ok {
			continue
		}
		c, ok := t.Column(a.Column)
		if !ok || c.Type != planast.TypeText && c.Type != planast.TypeUnknown {
			continue
		}
		vals, all := knownValues(t, c, stored)
		if slices.Contains(vals, a.Value) {
			// stored as given; other spellings of it are left out, as
			// a plan's filter on it says (variantLiterals)
			if w := otherSpellings(c, a.Value, vals, all); w != "" {
				out = append(out, fmt.Sprintf("argument %q: %s", a.Param, w))
			}
			continue
		}
		if matched {
			continue
		}
		w := spelledAlike(c, a.Value, vals, false)
		if w == "" {
			w = holdingIt(c, a.Value, vals, false)
		}
		if w != "" {
			out = append(out, fmt.Sprintf("argument %q: %s", a.Param, w))
		}
	}
	return out
}

// otherSpellings names the values of c (all of them known) that a
// query's equality with value leaves out though they are likely value
// itself, by the rule a plan's filter is judged by (spellingVariants:
// 'PAID' and 'paid ', then 'payed'), and those short for it. "" when
// there are none, or when c's values are not all known.
func otherSpellings(c *schema.Column, value string, vals []string, all bool) string {
	if !all {
		return ""
	}
	variants, short, how := spellingVariants(value, vals, nil)
	if len(variants) == 0 && len(short) == 0 {
		return ""
	}
	if len(variants) == 0 {
		return fmt.Sprintf("%q = %q matches that spelling only, but the column also stores %s%s", c.Name, value, someQuoted(firsts(short)), abbreviationNote(short))
	}
	// every one named (maxVariants at most): a run per spelling needs
	// them all, where a plan's warning writes them in its fix
	quoted := make([]string, len(variants))
	for i, v := range variants {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	return fmt.Sprintf("%q = %q matches that spelling only, but the column also stores %s, which differ from it %s: their rows are left out unless the question means that exact spelling; run the query once per spelling, or answer with a plan whose filter lists them all%s",
		c.Name, value, strings.Join(quoted, ", "), how, abbreviationNote(short))
}

// Argument is a verified query's text argument compared with a column.
type Argument struct {
	Param, Value, Schema, Table, Column string
}

// textFilter is the table, text column and string literal of a filter
// comparing column x of q with pattern; c is nil when it is not one.
func textFilter(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr) (t *schema.Table, c *schema.Column, lit *planast.Literal) {
	ref, ok := x.(*planast.Column)
	lit, isLit := pattern.(*planast.Literal)
	if !ok || !isLit || lit.Type != planast.TString {
		return nil, nil, nil
	}
	t, c = emptyrange.TableOfColumn(snap, q, ref)
	if c == nil || c.Type != planast.TypeText && c.Type != planast.TypeUnknown || !storedAsText(c.DeclaredType) {
		return nil, nil, nil
	}
	return t, c, lit
}

// storedAsText reports whether a column of the declared type compares
// with a string as text: a character type, or none (SQLite). A time, a
// range, an address or an enum the result shows as text compares by
// value ('[2024-01-01,2024-01-31]' is the stored '[2024-01-01,2024-02-01)';
// an enum refuses a label it lacks), so its profiled texts say nothing of
// which literals match.
func storedAsText(declared string) bool {
	d := strings.ToLower(declared)
	return d == "" || strings.Contains(d, "char") || strings.Contains(d, "text") || strings.Contains(d, "clob") || strings.Contains(d, "string")
}

// someQuoted quotes the first few of vals, saying how many more there are.
func someQuoted(vals []string) string {
	const show = 3
	quoted := make([]string, 0, show)
	for _, v := range vals[:min(len(vals), show)] {
		quoted = append(quoted, fmt.Sprintf("%q", v))
	}
	more := ""
	if len(vals) > show {
		more = fmt.Sprintf(" and %d more", len(vals)-show)
	}
	return strings.Join(quoted, ", ") + more
}

// partWarning explains a filter that matched nothing by stored values
// that hold the literal as a part, regardless of case ('Zeppelin' against
// a stored 'Led Zeppelin'): = and a like without wildcards compare whole
// values, so a name guessed from a question's words answers "none" while
// the rows are there. Literals under three characters are part of too
// much to say anything; "" when no stored value holds the literal.
func partWarning(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr, stored func(string, string, string) []string) string {
	t, c, lit := textFilter(snap, q, x, pattern)
	if c == nil {
		return ""
	}
	vals, _ := knownValues(t, c, stored)
	return holdingIt(c, lit.Text, vals, true)
}

// holdingIt is partWarning for text compared with column c of t; like
// says whether to suggest a like pattern (a plan can use one).
func holdingIt(c *schema.Column, text string, vals []string, like bool) string {
	lit := &planast.Literal{Text: text}
	if utf8.RuneCountInString(strings.TrimSpace(lit.Text)) < 3 {
		return ""
	}
	want := folded(lit.Text)
	var holding []string
	seen := map[string]bool{}
	for _, v := range vals {
		if lv := folded(v); !seen[v] && lv != want && strings.Contains(lv, want) {
			seen[v] = true
			holding = append(holding, v)
		}
	}
	if len(holding) == 0 {
		return ""
	}
	what := "the stored value " + someQuoted(holding) + " holds it"
	if len(holding) > 1 {
		what = "the stored values " + someQuoted(holding) + " hold it"
	}
	fix := "compare with the stored value"
	plainPart := !slices.ContainsFunc(holding, func(v string) bool { return !strings.Contains(loose(v), loose(lit.Text)) })
	if like && !strings.ContainsAny(lit.Text, "%_") && plainPart {
		pattern, _ := planast.JSON("%" + strings.TrimSpace(lit.Text) + "%")
		fix += fmt.Sprintf(`, or match a part: {"kind": "like", ..., "pattern": {"kind": "literal", "value": %s}, "case_insensitive": true}`, pattern)
	}
	return fmt.Sprintf("no rows matched, and no stored value of %q is %q, but %s (= and a like without %% compare whole values, on every engine): %s", c.Name, lit.Text, what, fix)
}

// knownValues are the text values known of column c of table t: the
// profile's samples, then the value index's list (stored; nil for a
// caller behind a row filter). all reports whether they are every value
// the column holds (the profile saw them all, or the index's list is
// complete), so that a value absent from them is absent from the data.
func knownValues(t *schema.Table, c *schema.Column, stored func(string, string, string) []string) (vals []string, all bool) {
	if c.Profile != nil {
		for _, v := range c.Profile.SampleValues {
			if s, ok := v.(string); ok {
				vals = append(vals, s)
			}
		}
		all = c.Profile.AllValues
	}
	if stored != nil {
		st := stored(t.Schema, t.Name, c.Name)
		vals = append(vals, st...)
		all = all || complete(c, st)
	}
	return vals, all
}

// loose is a value with letter case and surrounding white space ignored.
func loose(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// emptyTables names the tables the plan reads (at any depth) whose
// profile counted no rows; "" when none. A result over an empty table says
// nothing about the question's values, and it need not be empty to
// mislead: NOT EXISTS over an empty table holds, a CASE of it answers
// 'no', a count is 0. The warning says so whatever the result; when the
// filters matched nothing (empty) it says that instead of guessing at
// letter case or spelling.
func emptyTables(snap *schema.Snapshot, plan *planast.Query, empty bool) string {
	var names []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, f := range q.From {
			if f.Subquery != nil || seen[f.Schema+"."+f.Table] {
				continue
			}
			seen[f.Schema+"."+f.Table] = true
			if t, ok := snap.Lookup(f.Schema, f.Table); ok && t.Kind == schema.KindTable && t.RowCount != nil && *t.RowCount == 0 {
				names = append(names, fmt.Sprintf("%q", t.Name))
			}
		}
		return true
	})
	if len(names) == 0 {
		return ""
	}
	what := "table " + names[0] + " held"
	if len(names) > 1 {
		what = "tables " + strings.Join(names, ", ") + " held"
	}
	if empty {
		return "no rows matched, and " + what + " no rows when the datasource was profiled: the result reflects an empty table, not the filters' values"
	}
	return what + " no rows when the datasource was profiled: the result reflects an empty table (a count of 0, a NOT EXISTS that holds, a partner never found), not data"
}
