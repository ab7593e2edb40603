package multi

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// Keys that match nothing across datasources. Two databases kept by
// different hands rarely agree on every key: tickets of prospects that the
// billing database never held (account 9001), orders whose customer was
// deleted. A join of their results leaves such rows out without a sign,
// and nothing in either schema declares the link, so no warning of one
// datasource can see it. unmatched counts, for each join of the combine
// plan between two sources, the rows of each side an inner join drops
// because their key is set but matches no row of the other side, and
// names one key. An outer join keeps its own side and drops the other's
// unmatched rows by intent: only its keys that match once letter case and
// surrounding spaces are ignored are said of (written two ways, not
// missing).

// A source whose plan keeps only some rows of its table (a where, an
// inner join, a limit) leaves out rows whose keys its database holds: the
// other side's rows joined to them are dropped by the host's intent ("the
// bookings of Gold members"), not for want of a record. For such a source
// the keys that matched nothing are looked up in its table as the caller
// sees it (Outcome.Held), and only those it does not hold are named; when
// that cannot be asked (a computed key, a key of several columns), the
// warning says the filter may be why.

// Filters reports whether q may keep only some rows of the tables it
// reads: anything beyond selecting (and grouping) the rows of one table,
// such as a where, a join, a limit or a set operation.
func Filters(q *planast.Query) bool {
	return q != nil && (q.Where != nil || q.Having != nil || q.Qualify != nil || q.Limit != nil || q.Offset != nil ||
		len(q.Joins) > 0 || len(q.From) != 1 || q.From[0].Subquery != nil || len(q.With) > 0 || len(q.SetOps) > 0)
}

// heldKeys bounds the distinct unmatched keys looked up in a filtered
// source's table; more are said as "at least".
const heldKeys = 1000

// unmatched runs the counts over db's loaded tables; refs maps a table
// (a sub-query id) to the name its source was given, outs to its outcome.
// A probe that fails adds nothing: it only warns.
func unmatched(ctx context.Context, db *duckcompute.DB, plan *planast.Query, refs map[string]string, outs map[string]Outcome) []string {
	if plan == nil {
		return nil
	}
	var out []string
	for _, sj := range sourceJoins(plan, refs) {
		j, lt, rt, lcols, rcols := sj.join, sj.left, sj.right, sj.leftCols, sj.rightCols
		check := func(from string, fromCols []string, other string, otherCols []string, c count, alike string) {
			if c.n == 0 {
				return
			}
			rows := rowsText(c.n)
			if c.atLeast {
				rows = "at least " + rows
			}
			w := fmt.Sprintf("%s of source %q: %s matches no row of source %q (such as %s), so the inner join left them out", rows, refs[from], fromCols[0], refs[other], c.example)
			switch c.why {
			case notHeld:
				w += fmt.Sprintf(": no row of source %q's table holds that key either, so the two databases do not hold the same records or write the key two ways", refs[other])
			case filtered:
				w += fmt.Sprintf(": source %q's plan keeps only some of its rows, which may be why; if not, the two databases do not hold the same records or write the key two ways", refs[other])
			default:
				w += ": if they belong in the answer, the two databases do not hold the same records or write the key two ways"
			}
			if alike != "" {
				// keys written two ways leave rows of both sides unmatched:
				// a side matched whole says the keys are written alike
				w += fmt.Sprintf("; %s, so the keys are written alike: these are records source %q does not hold, left out as an inner join means", alike, refs[other])
			}
			if c.text && len(fromCols) == 1 {
				// of every row that matched nothing as written, which may
				// be more than those counted (a filtered source's table
				// holds some of them)
				if n, ex, kf := looseMatches(ctx, db, from, fromCols[0], other, otherCols[0]); n > 0 {
					w += fmt.Sprintf("; rows of source %q that match no row as written but match a key of source %q once %s: %d (such as %s): fold both sources' keys alike, e.g. %s in each source's plan, and join on that", refs[from], refs[other], kf.what, n, ex, kf.fix)
				}
			}
			out = append(out, w)
		}
		// an outer join drops only the other side's unmatched rows, which
		// is what a host writing one means (the tickets of the accounts it
		// lists, not the rest): only an inner join, which drops rows of
		// both sides, is said of in full. Keys written two ways are
		// said of on every join: a left join of prescriptions to visits
		// keeps 'apt-011247' with no visit, and the host reads "no visit"
		// where the databases only spell the code apart.
		if j.Type == "" || j.Type == planast.JoinInner {
			l, lok := countUnmatched(ctx, db, lt, lcols, rt, rcols, outs[rt])
			r, rok := countUnmatched(ctx, db, rt, rcols, lt, lcols, outs[lt])
			if lok {
				check(lt, lcols, rt, rcols, l, alike(r, rok, refs[rt], refs[lt]))
			}
			if rok {
				check(rt, rcols, lt, lcols, r, alike(l, lok, refs[lt], refs[rt]))
			}
			continue
		}
		if len(lcols) == 1 {
			// one warning a join, of the kept side first: both sides'
			// counts name one fault with one fix
			kept := map[string]bool{lt: j.Type == planast.JoinLeft || j.Type == planast.JoinFull, rt: j.Type == planast.JoinRight || j.Type == planast.JoinFull}
			sides := [][2]string{{lt, rt}, {rt, lt}}
			if kept[rt] && !kept[lt] {
				sides[0], sides[1] = sides[1], sides[0]
			}
			for _, side := range sides {
				from, other := side[0], side[1]
				fromCol, otherCol := lcols[0], rcols[0]
				if from == rt {
					fromCol, otherCol = rcols[0], lcols[0]
				}
				n, ex, kf := looseMatches(ctx, db, from, fromCol, other, otherCol)
				if n == 0 {
					continue
				}
				what := "left them out"
				if kept[from] {
					what = "kept them with no match"
				}
				out = append(out, fmt.Sprintf("%s of source %q: %s matches no row of source %q as written, so the %s join %s, but they match one once %s (such as %s): the two databases write the key two ways; fold both sources' keys alike, e.g. %s in each source's plan, and join on that",
					rowsText(n), refs[from], fromCol, refs[other], j.Type, what, kf.what, ex, kf.fix))
				break
			}
		}
	}
	return out
}

// alike is what c, the count of source other's rows that matched none of
// source from's, says when it found none: every row of other matches one
// of from (they were compared whole), or every key other holds is in
// from's table as written (from's plan filters, and its table was asked:
// none of other's rows need have matched a kept row). "" when it found
// some, or could not count.
func alike(c count, ok bool, other, from string) string {
	switch {
	case !ok || c.n != 0:
		return ""
	case c.why == notHeld:
		return fmt.Sprintf("every key of source %q is held, as written, in the table behind source %q", other, from)
	}
	return fmt.Sprintf("every row of source %q matches a row of source %q", other, from)
}

// sourceJoin is one join of a combine plan between two sub-query tables:
// the tables (left, right) and the key columns on each side.
type sourceJoin struct {
	join                planast.Join
	left, right         string
	leftCols, rightCols []string
}

// sourceJoins are plan's joins on key pairs between two sub-query tables
// (refs maps a table to its source's name).
func sourceJoins(plan *planast.Query, refs map[string]string) []sourceJoin {
	tables := map[string]string{} // alias → sub-query table
	for _, f := range plan.From {
		if _, ok := refs[f.Table]; ok && f.Subquery == nil {
			tables[f.Alias] = f.Table
		}
	}
	var out []sourceJoin
	for _, j := range plan.Joins {
		lt, lok := tables[j.Left]
		rt, rok := tables[j.Right]
		if !lok || !rok || len(j.On) == 0 {
			continue
		}
		sj := sourceJoin{join: j, left: lt, right: rt}
		for _, on := range j.On {
			sj.leftCols, sj.rightCols = append(sj.leftCols, on.LeftColumn), append(sj.rightCols, on.RightColumn)
		}
		out = append(out, sj)
	}
	return out
}

// rowsText is "1 row" or "n rows".
func rowsText(n int64) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// count is a count of unmatched rows: n (a lower bound when atLeast),
// the least key, and why they matched nothing (whole, notHeld, filtered).
type count struct {
	n       int64
	example string
	why     int
	atLeast bool
	text    bool // the keys are text
}

// Why a count of unmatched rows is what it is.
const (
	whole    = iota // the other source keeps every row of its table
	notHeld         // its table holds none of the keys counted
	filtered        // it keeps some rows and its table could not be asked
)

// countUnmatched counts the rows of table from whose key columns are all
// set and match no row of table other, and gives the least first key.
// When other's plan filters (Outcome.Filtered), only keys its table does
// not hold either are counted, where Outcome.Held can tell.
func countUnmatched(ctx context.Context, db *duckcompute.DB, from string, fromCols []string, other string, otherCols []string, o Outcome) (count, bool) {
	col := func(alias, name string) planast.Expr { return &planast.Column{Table: alias, Column: name} }
	var set, match planast.Expr
	for i := range fromCols {
		s := planast.Expr(&planast.IsNull{Expr: col("u", fromCols[i]), Negated: true})
		m := planast.Expr(&planast.Binary{Op: planast.OpEq, Left: col("o", otherCols[i]), Right: col("u", fromCols[i])})
		if i == 0 {
			set, match = s, m
			continue
		}
		set = &planast.Binary{Op: planast.OpAnd, Left: set, Right: s}
		match = &planast.Binary{Op: planast.OpAnd, Left: match, Right: m}
	}
	where := &planast.Binary{Op: planast.OpAnd, Left: set, Right: &planast.Exists{Negated: true, Subquery: &planast.Query{
		Select: []planast.SelectItem{{Expr: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}, Alias: "one"}},
		From:   []planast.From{{Table: other, Alias: "o"}},
		Where:  match,
	}}}
	if o.Filtered && len(fromCols) == 1 && o.Held != nil {
		return unheld(ctx, db, from, fromCols[0], otherCols[0], where, o)
	}
	probe := &planast.Query{
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "n"},
			{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{col("u", fromCols[0])}}, Alias: "example"},
		},
		From:  []planast.From{{Table: from, Alias: "u"}},
		Where: where,
	}
	res, err := db.Run(ctx, probe, 1)
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return count{}, false
	}
	_, text := res.Rows[0][1].(string)
	c := count{example: keyText(res.Rows[0][1]), why: whole, text: text}
	c.n, _ = res.Rows[0][0].(int64)
	if o.Filtered {
		c.why = filtered
	}
	return c, true
}

// unheld counts the rows of from (filtered by where) whose key the
// filtered source's table does not hold either: the distinct keys that
// matched nothing, least first, up to heldKeys of them, are looked up.
func unheld(ctx context.Context, db *duckcompute.DB, from, fromCol, otherCol string, where planast.Expr, o Outcome) (count, bool) {
	key := &planast.Column{Table: "u", Column: fromCol}
	probe := &planast.Query{
		Select:  []planast.SelectItem{{Expr: key, Alias: "key"}, {Expr: &planast.Func{Name: "COUNT"}, Alias: "n"}},
		From:    []planast.From{{Table: from, Alias: "u"}},
		Where:   where,
		GroupBy: []planast.Expr{key},
		OrderBy: []planast.OrderItem{{Expr: key}},
	}
	res, err := db.Run(ctx, probe, heldKeys)
	if err != nil || len(res.Rows) == 0 {
		return count{}, err == nil
	}
	keys := make([]any, len(res.Rows))
	for i, r := range res.Rows {
		keys[i] = r[0]
	}
	held, ok := o.Held(ctx, otherCol, keys)
	c := count{why: notHeld, atLeast: res.Truncated}
	if !ok {
		c.why = filtered
	}
	for _, r := range res.Rows {
		if ok && held[fmt.Sprint(r[0])] {
			continue
		}
		k, _ := r[1].(int64)
		c.n += k
		if c.example == "" {
			_, c.text = r[0].(string)
			c.example = keyText(r[0])
		}
	}
	return c, true
}

// keyText is a key as a warning shows it: text quoted, so that a
// trailing space or a case is seen ("BRA-007 "), other values as they are.
func keyText(v any) string {
	if s, ok := v.(string); ok {
		return cellfmt.Quote(s)
	}
	return cellfmt.Text(fmt.Sprint(v))
}

// keyFold is one way two databases write a key apart, the fold that
// makes the two alike, and how the warning names both.
type keyFold struct {
	what, fix string
	fold      func(planast.Expr) planast.Expr
	// bare, when set, is also required of a pair matched once folded: one
	// of the keys is a bare number (the digits fold: '123' beside
	// 'SHP-000123', where 'A-12' and 'B-12' are two keys)
	bare bool
	// fixFor, when set, writes fix for the key shown (its prefix)
	fixFor func(example any) string
}

// keyFolds are tried in order: case and surrounding spaces ('BRA-007 '
// and 'bra-007'), then also the separators inside ('CU-0001' and
// 'CU0001'), which a fold of case and spaces leaves apart, then the digits
// alone where one key is a bare number ('00032' and 'MRN-00032', which
// the advised UPPER(TRIM(x)) left apart with nothing said).
var keyFolds = []keyFold{
	{what: "letter case and surrounding spaces are ignored", fix: "UPPER(TRIM(x))", fold: func(x planast.Expr) planast.Expr {
		return &planast.Func{Name: "LOWER", Args: []planast.Expr{&planast.Func{Name: "TRIM", Args: []planast.Expr{x}}}}
	}},
	{what: "letter case, spaces and the separators '-', '_', '.' are ignored", fix: `REPLACE(REPLACE(REPLACE(REPLACE(UPPER(x), '-', ''), '_', ''), '.', ''), ' ', '')`, fold: func(x planast.Expr) planast.Expr {
		x = &planast.Func{Name: "LOWER", Args: []planast.Expr{x}}
		for _, sep := range []string{"-", "_", ".", " "} {
			x = replaceAll(x, sep)
		}
		return x
	}},
	{what: "only their digits are compared, one of them a bare number (prefix, separators and leading zeros aside)", fold: digitsOnly, bare: true, fixFor: digitsFix},
}

// keySeparators are the characters a key writes between its parts.
var keySeparators = []string{"-", "_", ".", " ", "/", "#"}

// digitsOnly is x without its letters and separators, read as an
// integer: 'SHP-000123', 'shp000123' and '123' are all 123 (NULL when
// nothing but digits is left).
func digitsOnly(x planast.Expr) planast.Expr {
	x = &planast.Func{Name: "UPPER", Args: []planast.Expr{&planast.Func{Name: "TRIM", Args: []planast.Expr{x}}}}
	for r := 'A'; r <= 'Z'; r++ {
		x = replaceAll(x, string(r))
	}
	for _, sep := range keySeparators {
		x = replaceAll(x, sep)
	}
	return &planast.Cast{Type: planast.CastInteger, Expr: x}
}

// replaceAll is REPLACE of what by the empty string in x.
func replaceAll(x planast.Expr, what string) planast.Expr {
	return &planast.Func{Name: "REPLACE", Args: []planast.Expr{x, &planast.Literal{Type: planast.TString, Text: what}, &planast.Literal{Type: planast.TString, Text: ""}}}
}

// bareNumber is whether x is a bare number ('123', ' 00123 ').
func bareNumber(x planast.Expr) planast.Expr {
	return &planast.IsNull{Negated: true, Expr: &planast.Cast{Type: planast.CastInteger, Expr: &planast.Func{Name: "TRIM", Args: []planast.Expr{x}}}}
}

// digitsFix writes the digits fold for keys such as example: its prefix
// of letters and separators removed ('SHP-000123': 'SHP' and '-'), the
// rest cast to an integer.
func digitsFix(example any) string {
	s, _ := example.(string)
	s = strings.ToUpper(strings.TrimSpace(s))
	prefix := s[:len(s)-len(strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }))]
	letters := strings.TrimRightFunc(prefix, func(r rune) bool { return !unicode.IsLetter(r) })
	x := "UPPER(TRIM(x))"
	if letters != "" {
		x = fmt.Sprintf("REPLACE(%s, '%s', '')", x, strings.ReplaceAll(letters, "'", "''"))
	}
	for _, sep := range keySeparators {
		if strings.Contains(prefix, sep) { // 'MRN 00032' writes a space inside, which TRIM keeps
			x = fmt.Sprintf("REPLACE(%s, '%s', '')", x, sep)
		}
	}
	if letters == "" {
		return "CAST(x AS INTEGER) where x is the key without the letters and separators the other source writes before its digits"
	}
	return fmt.Sprintf("CAST(%s AS INTEGER) (one REPLACE for each prefix the keys write)", x)
}

// looseMatches counts the rows of from whose text key matches no key of
// other as written but one once both are folded alike (keyFolds: of the
// folds of letters and separators, the one that matches the most, the
// earlier on a tie, where the first that matched any named 4 keys written
// 'cu0001' beside 'CU-0001' as different records; the digits fold only
// when neither matches), and gives the least such key and the fold: two
// databases that write one key two ways, which a fold of both sides joins.
func looseMatches(ctx context.Context, db *duckcompute.DB, from, fromCol, other, otherCol string) (int64, string, keyFold) {
	var best int64
	var bestEx string
	var bestFold keyFold
	for _, kf := range keyFolds {
		if kf.bare {
			continue
		}
		if n, ex, _ := foldMatches(ctx, db, from, fromCol, other, otherCol, kf); n > best {
			best, bestEx, bestFold = n, ex, kf
		}
	}
	if best > 0 {
		return best, bestEx, bestFold
	}
	for _, kf := range keyFolds {
		if !kf.bare {
			continue
		}
		if n, ex, raw := foldMatches(ctx, db, from, fromCol, other, otherCol, kf); n > 0 {
			if kf.fixFor != nil {
				if raw != nil && !hasLetter(raw) {
					// the bare numbers are this side's: the other names the prefix
					if p := prefixedOf(ctx, db, other, otherCol, from, fromCol); p != nil {
						raw = p
					}
				}
				kf.fix = kf.fixFor(raw)
			}
			return n, ex, kf
		}
	}
	return 0, "", keyFold{}
}

// hasLetter reports whether the key v holds a letter.
func hasLetter(v any) bool {
	s, _ := v.(string)
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// prefixedOf is the least key of table t (column col) that is no bare
// number and whose digits are those of a bare number of table from
// (column fromCol): the prefix the bare numbers leave out. Nil when none.
func prefixedOf(ctx context.Context, db *duckcompute.DB, t, col, from, fromCol string) any {
	key := &planast.Column{Table: "t", Column: col}
	fkey := &planast.Column{Table: "f", Column: fromCol}
	probe := &planast.Query{
		Select: []planast.SelectItem{{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{key}}, Alias: "example"}},
		From:   []planast.From{{Table: t, Alias: "t"}},
		Where: &planast.Binary{Op: planast.OpAnd, Left: &planast.Unary{Op: "not", Expr: bareNumber(key)}, Right: &planast.Exists{Subquery: &planast.Query{
			Select: []planast.SelectItem{{Expr: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}, Alias: "one"}},
			From:   []planast.From{{Table: from, Alias: "f"}},
			Where:  &planast.Binary{Op: planast.OpAnd, Left: bareNumber(fkey), Right: &planast.Binary{Op: planast.OpEq, Left: digitsOnly(key), Right: digitsOnly(fkey)}},
		}}},
	}
	res, err := db.Run(ctx, probe, 1)
	if err != nil || len(res.Rows) != 1 {
		return nil
	}
	return res.Rows[0][0]
}

// foldMatches is looseMatches for one fold: the count, the least key
// shown, and as it is (raw). The example is a prefixed key where some
// is (the least with a letter first), so that a fix can name its prefix.
func foldMatches(ctx context.Context, db *duckcompute.DB, from, fromCol, other, otherCol string, kf keyFold) (int64, string, any) {
	key := &planast.Column{Table: "u", Column: fromCol}
	okey := &planast.Column{Table: "o", Column: otherCol}
	exists := func(negated bool, where planast.Expr) planast.Expr {
		return &planast.Exists{Negated: negated, Subquery: &planast.Query{
			Select: []planast.SelectItem{{Expr: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}, Alias: "one"}},
			From:   []planast.From{{Table: other, Alias: "o"}},
			Where:  where,
		}}
	}
	folded := planast.Expr(&planast.Binary{Op: planast.OpEq, Left: kf.fold(okey), Right: kf.fold(key)})
	if kf.bare {
		folded = &planast.Binary{Op: planast.OpAnd, Left: folded, Right: &planast.Binary{Op: planast.OpOr, Left: bareNumber(okey), Right: bareNumber(key)}}
	}
	example := planast.Expr(&planast.Func{Name: "MIN", Args: []planast.Expr{key}})
	if kf.bare {
		prefixed := &planast.Func{Name: "MIN", Args: []planast.Expr{&planast.Case{Whens: []planast.When{{When: bareNumber(key), Then: &planast.Literal{Type: planast.TNull}}}, Else: key}}}
		example = &planast.Func{Name: "COALESCE", Args: []planast.Expr{prefixed, example}}
	}
	probe := &planast.Query{
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "n"},
			{Expr: example, Alias: "example"},
		},
		From: []planast.From{{Table: from, Alias: "u"}},
		Where: &planast.Binary{Op: planast.OpAnd,
			Left:  exists(true, &planast.Binary{Op: planast.OpEq, Left: okey, Right: key}),
			Right: exists(false, folded)},
	}
	res, err := db.Run(ctx, probe, 1)
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return 0, "", nil
	}
	n, _ := res.Rows[0][0].(int64)
	return n, keyText(res.Rows[0][1]), res.Rows[0][1]
}
