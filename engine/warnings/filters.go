package warnings

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Filters are the warnings a plan's filters earn from its result,
// read off the plan and the snapshot's profile (no query):
//
//   - spelling: an = or IN of a text column with a string literal, in a
//     plan whose filters matched nothing, where a stored value differs
//     from the literal only in letter case or surrounding spaces
//     ('Aberdeen' against 'Aberdeen '): the warning names the stored
//     spelling (spellingWarning), and the case warning is not added.
//   - case: a case-sensitive LIKE or = of a text column with a string
//     literal in a plan whose filters matched nothing. Every engine matches text
//     case-sensitively (SQLite runs with PRAGMA case_sensitive_like = ON so
//     that the three agree), so '%dinosaur%' misses 'Dinosaur'; the
//     warning names the comparison and case_insensitive. That the pragma
//     ran, and what else the shown SQL needs of the server's SQLite
//     connections, are SQLNotes, not warnings.
//   - nulls: NOT IN or != on a column whose profile has NULLs. Such a
//     filter is never true on NULL, so those rows are dropped silently;
//     the warning names the column, its NULL share and the IS NULL
//     alternative. A NOT IN whose list or subquery holds a NULL is never
//     true at all (nullInList), which is said instead.
func Filters(snap *schema.Snapshot, dialect string, plan *planast.Query, empty bool, stored func(schemaName, table, column string) []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, cond := range []planast.Expr{q.Where, q.Having} {
			if cond == nil {
				continue
			}
			planast.Inspect(cond, func(n planast.Node) bool {
				switch e := n.(type) {
				case *planast.IsNull:
					if w := blankWarning(snap, q, e); w != "" {
						add(w)
					}
				case *planast.Like:
					if !empty {
						break
					}
					part := ""
					if !wildcards(e.Pattern) {
						part = partWarning(snap, q, e.Expr, e.Pattern, stored)
					}
					if part != "" {
						add(part)
					} else if w := caseWarning(snap, q, e.Expr, e.Pattern, "like", stored); !e.CaseInsensitive && w != "" {
						add(w)
					}
				case *planast.Binary:
					switch e.Op {
					case "=":
						if empty {
							col, lit := emptyrange.ColumnAndLiterals(e.Left, e.Right)
							if col != nil && lit[0].Type == planast.TString {
								if w := spellingWarning(snap, q, col, lit[0], stored); w != "" {
									add(w)
								} else if w := partWarning(snap, q, col, lit[0], stored); w != "" {
									add(w)
								} else if w := caseWarning(snap, q, col, lit[0], "=", stored); w != "" {
									add(w)
								}
							}
						}
					case "!=":
						if w := nullWarning(snap, q, e.Left, "!="); w != "" {
							add(w)
						} else if w := nullWarning(snap, q, e.Right, "!="); w != "" {
							add(w)
						}
					}
				case *planast.In:
					if e.Negated {
						if w := nullInList(snap, e, empty); w != "" {
							add(w)
						} else if w := nullWarning(snap, q, e.Expr, "NOT IN"); w != "" {
							add(w)
						}
					} else if empty {
						for _, x := range e.List {
							if w := spellingWarning(snap, q, e.Expr, x, stored); w != "" {
								add(w)
							} else if w := partWarning(snap, q, e.Expr, x, stored); w != "" {
								add(w)
							}
						}
					}
				}
				return true
			})
		}
		return true
	})
	return out
}

// SQLNotes say how the shown SQL differs from what a plain client of the
// engine would run, on SQLite: LIKE ran case-sensitively under a pragma
// (for a pattern with a letter, which case can change), and aggregates,
// case folding and time-zone rules the server registers on its
// connections ran. They
// change nothing in the result, so they are not warnings (a host reading
// them on every LOWER learns to skip warnings); they matter to a person
// who pastes the SQL into a sqlite3 shell.
func SQLNotes(dialect string, plan *planast.Query) []string {
	if dialect != schema.DialectSQLite {
		return nil
	}
	var out []string
	sensitiveLike := false
	planast.Inspect(plan, func(n planast.Node) bool {
		if e, ok := n.(*planast.Like); ok && !e.CaseInsensitive && cased(e.Pattern) {
			sensitiveLike = true
		}
		return true
	})
	if sensitiveLike {
		out = append(out, `LIKE ran case-sensitively, as on DuckDB and PostgreSQL (PRAGMA case_sensitive_like = ON); only to run this SQL yourself in a sqlite3 shell, set that pragma first`)
	}
	if name := spreadCall(plan); name != "" {
		out = append(out, name+` is an aggregate the server registers on SQLite: a plain sqlite3 shell lacks it`)
	}
	if foldCall(plan) {
		out = append(out, `unicode_upper and unicode_lower fold every letter (SQLite's upper and lower fold A-Z only): the server registers them, a plain sqlite3 shell lacks them`)
	}
	if calls(plan, "AT_TIME_ZONE") {
		out = append(out, `tz_local_time reads the tz database's rules (SQLite holds none): the server registers it, a plain sqlite3 shell lacks it`)
	}
	return out
}

// calls reports whether plan calls the function named name.
func calls(plan *planast.Query, name string) bool {
	found := false
	planast.Inspect(plan, func(n planast.Node) bool {
		f, ok := n.(*planast.Func)
		found = found || ok && strings.EqualFold(f.Name, name)
		return !found
	})
	return found
}

// wildcards reports whether a like pattern may match more than one
// whole value: it is not a string literal, or it holds % or _.
func wildcards(pattern planast.Expr) bool {
	lit, ok := pattern.(*planast.Literal)
	return !ok || lit.Type != planast.TString || strings.ContainsAny(lit.Text, "%_")
}

// spreadCall is the name of a standard deviation or variance aggregate in
// plan, or "".
func spreadCall(plan *planast.Query) string {
	name := ""
	planast.Inspect(plan, func(n planast.Node) bool {
		if f, ok := n.(*planast.Func); ok && name == "" {
			if _, ok := planast.Spread[strings.ToUpper(f.Name)]; ok {
				name = strings.ToUpper(f.Name)
			}
		}
		return name == ""
	})
	return name
}

// foldCall reports whether plan upper- or lower-cases text: a call of
// UPPER or LOWER, or a case_insensitive like.
func foldCall(plan *planast.Query) bool {
	found := false
	planast.Inspect(plan, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Func:
			found = found || strings.EqualFold(x.Name, "UPPER") || strings.EqualFold(x.Name, "LOWER")
		case *planast.Like:
			found = found || x.CaseInsensitive
		}
		return !found
	})
	return found
}

// caseWarning explains an empty result by the case of a text comparison:
// x is a text column of q, pattern a string literal. It is not given when
// the stored values show case is not why: one of them matches the
// comparison as written (the filters matched nothing for another reason:
// a join, another condition), or the column's complete value list has
// none that matches regardless of case either.
func caseWarning(snap *schema.Snapshot, q *planast.Query, x, pattern planast.Expr, op string, stored func(string, string, string) []string) string {
	ref, ok := x.(*planast.Column)
	lit, isLit := pattern.(*planast.Literal)
	if !ok || !isLit || lit.Type != planast.TString {
		return ""
	}
	c := emptyrange.FromColumn(snap, q, ref)
	if c == nil || c.Type != planast.TypeText || strings.ToLower(lit.Text) == strings.ToUpper(lit.Text) {
		return "" // no letters: case cannot matter
	}
	if !caseCouldExplain(snap, q, ref, lit.Text, op == "like", stored) {
		return ""
	}
	fix := `set "case_insensitive": true on the like`
	if op == "=" {
		fix = `use {"kind": "like", ..., "case_insensitive": true} with the value as pattern`
	}
	return fmt.Sprintf("no rows matched, and %q %s %q compares case-sensitively (on every engine): %s to match regardless of case", c.Name, strings.ToUpper(op), lit.Text, fix)
}

// nullTested reports whether q's filters test ref (or an expression of
// it) for NULL: a plan that writes microchip IS NOT NULL beside its
// microchip != 'x' has said what its NULLs do, and being told again
// teaches it to skip warnings.
func nullTested(q *planast.Query, ref *planast.Column) bool {
	found := false
	for _, cond := range []planast.Expr{q.Where, q.Having} {
		planast.Inspect(cond, func(n planast.Node) bool {
			if e, ok := n.(*planast.IsNull); ok && refersTo(e.Expr, ref) {
				found = true
			}
			return !found
		})
	}
	return found
}

// nullWarning names a nullable column under NOT IN or != : rows where it
// is NULL never pass such a filter.
func nullWarning(snap *schema.Snapshot, q *planast.Query, x planast.Expr, op string) string {
	ref := nullCarrier(x)
	if ref == nil {
		return ""
	}
	c := emptyrange.FromColumn(snap, q, ref)
	if c == nil || c.Profile == nil || c.Profile.NullFraction <= 0 || nullTested(q, ref) {
		return ""
	}
	what := strconv.Quote(c.Name)
	if x != planast.Expr(ref) { // LOWER(TRIM(status)), as the spelling warnings advise: NULL where status is
		what = "an expression of " + what
	}
	return fmt.Sprintf("%s %s drops the rows where %q is NULL (%.1f%% of its rows): a NULL is neither equal nor unequal to anything; to keep them, add {\"kind\": \"is_null\", \"expr\": <the column>} with \"or\"",
		what, op, c.Name, 100*c.Profile.NullFraction)
}

// nullCarrier is the column whose NULL makes x NULL: x itself, or the
// column inside functions, casts and arithmetic that give NULL on a NULL
// argument (LOWER(TRIM(status)) is NULL where status is). nil when x
// holds no column, or may turn a NULL into a value (COALESCE, NULLIF, a
// case), or holds two columns (either could be why).
func nullCarrier(x planast.Expr) *planast.Column {
	switch e := x.(type) {
	case *planast.Column:
		return e
	case *planast.Cast:
		return nullCarrier(e.Expr)
	case *planast.Binary:
		if _, ok := arithOps[e.Op]; !ok {
			return nil
		}
		l, r := nullCarrier(e.Left), nullCarrier(e.Right)
		switch {
		case l != nil && planast.Constant(e.Right):
			return l
		case r != nil && planast.Constant(e.Left):
			return r
		}
	case *planast.Func:
		if _, ok := strictFuncs[strings.ToUpper(e.Name)]; !ok || len(e.Args) == 0 {
			return nil
		}
		var carrier *planast.Column
		for _, a := range e.Args {
			if planast.Constant(a) {
				continue
			}
			if carrier != nil {
				return nil
			}
			if carrier = nullCarrier(a); carrier == nil {
				return nil
			}
		}
		return carrier
	}
	return nil
}

// strictFuncs give NULL when an argument is NULL; arithOps likewise.
var (
	strictFuncs = map[string]struct{}{"LOWER": {}, "UPPER": {}, "TRIM": {}, "LENGTH": {}, "SUBSTR": {}, "LEFT": {}, "RIGHT": {},
		"CONCAT": {}, "REPLACE": {}, "ABS": {}, "ROUND": {}, "DATE_PART": {}, "DATE_TRUNC": {}, "PERIOD_LABEL": {}, "POSITION": {}}
	arithOps = map[string]struct{}{planast.OpAdd: {}, planast.OpSub: {}, planast.OpMul: {}, planast.OpDiv: {}, planast.OpIDiv: {}, planast.OpMod: {}}
)

// caseCouldExplain reports whether letter case may be why a comparison of
// ref with text (a LIKE pattern when like) matched nothing, by the stored
// values known: not when one matches as written, nor when the list is
// complete and none matches regardless of case; otherwise (a partial
// list) it may be.
func caseCouldExplain(snap *schema.Snapshot, q *planast.Query, ref *planast.Column, text string, like bool, stored func(string, string, string) []string) bool {
	t, c := emptyrange.TableOfColumn(snap, q, ref)
	if c == nil {
		return true
	}
	vals, all := knownValues(t, c, stored)
	exact, loose := likeMatchers(text, like)
	anyLoose := false
	for _, v := range vals {
		if exact(v) {
			return false
		}
		anyLoose = anyLoose || loose(v)
	}
	return anyLoose || !all
}

// likeMatchers are text's comparison as written and regardless of case:
// equality, or LIKE's % (any run) and _ (one character) when like, a
// backslash taking the next character as it is (the renderer writes
// ESCAPE '\').
func likeMatchers(text string, like bool) (exact, loose func(string) bool) {
	if !like {
		return func(v string) bool { return v == text }, func(v string) bool { return strings.EqualFold(v, text) }
	}
	var b strings.Builder
	escaped := false
	for _, r := range text {
		switch {
		case escaped:
			b.WriteString(regexp.QuoteMeta(string(r)))
			escaped = false
		case r == '\\':
			escaped = true
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	cs := regexp.MustCompile(`(?s)^` + b.String() + `$`)
	ci := regexp.MustCompile(`(?is)^` + b.String() + `$`)
	return cs.MatchString, ci.MatchString
}

// nullInList explains a NOT IN that is never true: x NOT IN (…, NULL) is
// NULL or false for every x, so the filter keeps no row. The NULL is a
// literal in the list, or a value of the column a subquery selects whose
// profile has NULLs; the subquery's own filters may drop those rows, so
// then it is said only when the run matched nothing (empty) or the
// subquery tests the column with IS NOT NULL (then never).
func nullInList(snap *schema.Snapshot, in *planast.In, empty bool) string {
	const never = "is never true while its list holds a NULL (x NOT IN (…, NULL) is NULL for every x), so it keeps no row"
	for _, x := range in.List {
		if lit, ok := x.(*planast.Literal); ok && lit.Type == planast.TNull {
			return "NOT IN " + never + `: drop the NULL from the list, and test {"kind": "is_null"} apart if NULLs are meant`
		}
	}
	sub := in.Subquery
	if sub == nil || len(sub.Select) != 1 || len(sub.SetOps) > 0 {
		return ""
	}
	ref, ok := sub.Select[0].Expr.(*planast.Column)
	if !ok {
		return ""
	}
	c := emptyrange.FromColumn(snap, sub, ref)
	if c == nil || c.Profile == nil || c.Profile.NullFraction <= 0 || testsNotNull(sub.Where, ref) {
		return ""
	}
	if !empty && (sub.Where != nil || len(sub.Joins) > 0 || len(sub.GroupBy) > 0 || sub.Having != nil) {
		return ""
	}
	return fmt.Sprintf(`NOT IN (a subquery selecting %q) %s, and %q holds NULL (%.1f%% of its rows): add {"kind": "is_null", "expr": <the column>, "negated": true} to the subquery's where, or use {"kind": "exists", "negated": true, ...} with the key compared inside`,
		c.Name, never, c.Name, 100*c.Profile.NullFraction)
}

// testsNotNull reports whether cond holds ref IS NOT NULL.
func testsNotNull(cond planast.Expr, ref *planast.Column) bool {
	found := false
	inspectOwn(cond, func(e planast.Expr) {
		if n, ok := e.(*planast.IsNull); ok && n.Negated {
			if c, ok := n.Expr.(*planast.Column); ok && c.Column == ref.Column && c.Table == ref.Table {
				found = true
			}
		}
	})
	return found
}

// cased reports whether a like pattern can match differently by letter
// case: it holds a letter, or is no literal. '2024-01%' cannot, so the
// note on how SQLite runs LIKE would be noise there.
func cased(pattern planast.Expr) bool {
	lit, ok := pattern.(*planast.Literal)
	return !ok || strings.ContainsFunc(lit.Text, unicode.IsLetter)
}

// blankWarning names an IS [NOT] NULL test of a text column whose
// profile saw blank values (empty or all spaces) or words written for no
// value ('N/A', 'unknown') beside its NULLs: "customers with a segment" as
// segment IS NOT NULL counted the 5 whose segment is empty, and "without
// one" as IS NULL left them out, with nothing said.
func blankWarning(snap *schema.Snapshot, q *planast.Query, e *planast.IsNull) string {
	ref, ok := e.Expr.(*planast.Column)
	if !ok {
		return ""
	}
	c, markers := blankColumn(snap, q, ref)
	if c == nil || blankTested(q, ref) {
		return ""
	}
	col, _ := planast.JSON(ref)
	if len(markers) > 0 {
		what, in := missingIn(c, markers, string(col), e.Negated)
		if e.Negated {
			return fmt.Sprintf(`%q IS NOT NULL keeps the rows where %q is %s, which the column holds beside NULL: to leave them out too, add %s with "and"`, c.Name, c.Name, what, in)
		}
		return fmt.Sprintf(`%q IS NULL leaves out the rows where %q is %s, which the column holds beside NULL: to take them as missing too, add %s with "or"`, c.Name, c.Name, what, in)
	}
	trimmed := fmt.Sprintf(`{"kind": "func", "name": "TRIM", "args": [%s]}`, col)
	if e.Negated {
		return fmt.Sprintf(`%q IS NOT NULL keeps the rows where %q is blank ('' or spaces), which the column holds beside NULL: to leave them out too, add {"kind": "binary", "op": "!=", "left": %s, "right": {"kind": "literal", "value": ""}} with "and"`, c.Name, c.Name, trimmed)
	}
	return fmt.Sprintf(`%q IS NULL leaves out the rows where %q is blank ('' or spaces), which the column holds beside NULL: to take them as missing too, add {"kind": "binary", "op": "=", "left": %s, "right": {"kind": "literal", "value": ""}} with "or"`, c.Name, c.Name, trimmed)
}

// missingIn describes the no-value words of c (markers, upper case, as
// blankColumn gives them) and writes the test that finds them, blanks
// included when the column holds some: UPPER(TRIM(col)) [NOT] IN (...).
// NOT IN keeps NULL out as IS NOT NULL does.
func missingIn(c *schema.Column, markers []string, col string, negated bool) (what, in string) {
	var quoted, lits []string
	if hasBlank(c) {
		lits = append(lits, `{"kind": "literal", "value": ""}`)
	}
	for _, m := range markers {
		quoted = append(quoted, "'"+m+"'")
		b, _ := planast.JSON(m)
		lits = append(lits, fmt.Sprintf(`{"kind": "literal", "value": %s}`, b))
	}
	what = fmt.Sprintf("a word written for no value (%s, any case)", strings.Join(quoted, ", "))
	switch {
	case len(markers) == 0:
		what = "blank ('' or spaces)"
	case hasBlank(c):
		what = "blank ('' or spaces) or " + what
	}
	in = fmt.Sprintf(`{"kind": "in", "negated": %v, "expr": {"kind": "func", "name": "UPPER", "args": [{"kind": "func", "name": "TRIM", "args": [%s]}]}, "list": [%s]}`, negated, col, strings.Join(lits, ", "))
	return what, in
}

// blankTested reports whether q's filters already compare ref (or a
// function of it, TRIM(ref)) with a blank literal or a no-value word, by
// = or by IN: the plan that writes end_date IS NULL or TRIM(end_date)
// equal to the empty text was told to add what it had.
func blankTested(q *planast.Query, ref *planast.Column) bool {
	missing := func(e planast.Expr) bool {
		lit, ok := e.(*planast.Literal)
		return ok && lit.Type == planast.TString && (strings.TrimSpace(lit.Text) == "" || noValueWord(lit.Text))
	}
	found := false
	for _, cond := range []planast.Expr{q.Where, q.Having} {
		planast.Inspect(cond, func(n planast.Node) bool {
			switch b := n.(type) {
			case *planast.Binary:
				if b.Op != planast.OpEq && b.Op != "!=" && b.Op != "<>" {
					return true
				}
				// a != of the column keeps its blank values already (the
				// test-flag filter: is_test IS NULL OR is_test != 'Y')
				for _, pair := range [][2]planast.Expr{{b.Left, b.Right}, {b.Right, b.Left}} {
					if refersTo(pair[0], ref) && (missing(pair[1]) || b.Op != planast.OpEq) {
						found = true
					}
				}
			case *planast.In:
				// so does a NOT IN listing no blank
				if refersTo(b.Expr, ref) && (b.Negated || slices.ContainsFunc(b.List, missing)) {
					found = true
				}
			case *planast.Like:
				// and a NOT LIKE of a pattern that needs a character (an
				// email NOT LIKE '%@%.%'): no blank and no word for no
				// value holds its '@'
				lit, ok := b.Pattern.(*planast.Literal)
				if b.Negated && refersTo(b.Expr, ref) && ok && lit.Type == planast.TString &&
					strings.Trim(lit.Text, "%_ ") != "" && !noValueWord(strings.Trim(lit.Text, "%_")) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// refersTo reports whether e is ref or holds it.
func refersTo(e planast.Expr, ref *planast.Column) bool {
	found := false
	planast.Inspect(e, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok && c.Table == ref.Table && strings.EqualFold(c.Column, ref.Column) {
			found = true
		}
		return !found
	})
	return found
}

// noValueWords are the words data writes for "no value" (compared
// trimmed and in upper case).
var noValueWords = []string{"N/A", "N.A.", "NA", "#N/A", "NONE", "NULL", "NIL", "-", "--", "?", "UNKNOWN", "NOT AVAILABLE", "MISSING"}

// noValueWord reports whether s is one of noValueWords.
func noValueWord(s string) bool {
	_, ok := noValueKey(s)
	return ok
}

// noValueKey is the word of noValueWords s writes (trimmed, upper case).
func noValueKey(s string) (string, bool) {
	w := strings.ToUpper(strings.TrimSpace(s))
	return w, slices.Contains(noValueWords, w)
}

// hasBlank reports whether c's profile saw blank values (empty or all spaces).
func hasBlank(c *schema.Column) bool {
	return slices.ContainsFunc(c.Profile.SampleValues, func(v any) bool {
		s, ok := v.(string)
		return ok && strings.TrimSpace(s) == ""
	})
}

// codesOnly reports whether every value c's profile saw is a code of at
// most three letters.
func codesOnly(c *schema.Column) bool {
	return !slices.ContainsFunc(c.Profile.SampleValues, func(v any) bool {
		s, ok := v.(string)
		return !ok || len(strings.TrimSpace(s)) > 3
	})
}

// blankColumn is ref's column when it is text whose profile saw blank
// values (empty or all spaces) or no-value words beside its NULLs, with those
// words (trimmed, upper case, in noValueWords' order); nil otherwise.
func blankColumn(snap *schema.Snapshot, q *planast.Query, ref *planast.Column) (*schema.Column, []string) {
	c := emptyrange.FromColumn(snap, q, ref)
	if c == nil || c.Type != planast.TypeText || c.Profile == nil {
		return nil, nil
	}
	// each sample read once (this runs for every grouped or counted
	// column on every call), the words then in noValueWords' order
	seen := map[string]bool{}
	for _, v := range c.Profile.SampleValues {
		if s, ok := v.(string); ok && len(s) <= len("NOT AVAILABLE")+2 {
			if w, ok := noValueKey(s); ok {
				seen[w] = true
			}
		}
	}
	var markers []string
	for _, w := range noValueWords {
		if seen[w] {
			markers = append(markers, w)
		}
	}
	if i := slices.Index(markers, "NA"); i >= 0 && codesOnly(c) {
		// 'NA' among two-letter codes is Namibia or North America
		markers = slices.Delete(markers, i, i+1)
	}
	if len(markers) == 0 && !hasBlank(c) {
		return nil, nil
	}
	return c, markers
}

// blankCounts names COUNT(x) of such a column: it counts the blank rows
// as values ("loans returned" as COUNT(returned_on) gave 160 where 37 of
// them are ”).
func blankCounts(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || !strings.EqualFold(f.Name, "COUNT") || len(f.Args) != 1 {
				return
			}
			ref, ok := f.Args[0].(*planast.Column)
			if !ok {
				return
			}
			if c, markers := blankColumn(snap, q, ref); c != nil {
				col, _ := planast.JSON(ref)
				if len(markers) > 0 {
					what, in := missingIn(c, markers, string(col), false)
					if w := fmt.Sprintf(`COUNT of %q counts the rows where %q is %s as values: to count only real values, count {"kind": "case", "whens": [{"when": %s, "then": {"kind": "literal", "value": null}}], "else": %s}`, c.Name, c.Name, what, in, col); !slices.Contains(out, w) {
						out = append(out, w)
					}
					return
				}
				w := fmt.Sprintf(`COUNT of %q counts the rows where %q is blank ('' or spaces) as values: to count only real values, count {"kind": "func", "name": "NULLIF", "args": [{"kind": "func", "name": "TRIM", "args": [%s]}, {"kind": "literal", "value": ""}]}`, c.Name, c.Name, col)
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		})
	})
	return out
}

// blankGroups names a GROUP BY of a column that writes "no value" several
// ways (NULL, a blank, 'N/A', 'unknown'): each is a group of its own, so "pets
// whose species is not recorded" came back as four rows, each with part of
// them. The fix groups by the column with those values made NULL.
func blankGroups(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for _, g := range q.GroupBy {
			ref, ok := groupedExpr(q, g).(*planast.Column)
			if !ok {
				continue
			}
			c, markers := blankColumn(snap, q, ref)
			if c == nil {
				continue
			}
			var ways []string
			if c.Profile.NullFraction > 0 {
				ways = append(ways, "NULL")
			}
			for _, v := range c.Profile.SampleValues {
				if s, ok := v.(string); ok && (strings.TrimSpace(s) == "" || noValueWord(s)) {
					ways = append(ways, cellfmt.Quote(s))
				}
			}
			if len(ways) < 2 {
				continue
			}
			col, _ := planast.JSON(ref)
			what, in := missingIn(c, markers, string(col), false)
			w := fmt.Sprintf(`grouping by %q makes a group of each way it writes no value (%s): the rows with no %s are split among them; to make them one group (NULL), group by {"kind": "case", "whens": [{"when": %s, "then": {"kind": "literal", "value": null}}], "else": %s}, which reads %s as NULL`,
				c.Name, strings.Join(ways, ", "), c.Name, in, col, what)
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	})
	return out
}
