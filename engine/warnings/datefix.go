package warnings

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// numericDate is a date written with day and month of one or two digits
// and a four-digit year, in either order: 27/02/2025, 02.27.2025,
// 27-02-2025, 9/9/2025, with a time after it or not (27.02.2025 08:15).
var numericDate = regexp.MustCompile(`^([0-9]{1,2})([/.-])([0-9]{1,2})([/.-])([0-9]{4})([ T].*)?$`)

// yearFirstDate is a date written year first with slashes or dots:
// 2025/02/27, 2025.02.27, with a time after it or not.
var yearFirstDate = regexp.MustCompile(`^[0-9]{4}[/.][0-9]{2}[/.][0-9]{2}([ T].*)?$`)

// dateFix writes, as plan JSON, the expression (and says how it reads
// them) that reads text dates shaped as example (27/02/2025) as dates
// along with the ISO ones: a CASE that reorders such a value into
// YYYY-MM-DD with SUBSTR and CONCAT, cast to the type. Which of the two
// first parts is the day, a part over 12 shows, value by value: a column
// typed by several hands holds '15/02/2024' beside '03/20/2024', and one
// order for all would lose one of them. Where both parts are 12 or less
// the example decides, or the day comes first, and the warning says how
// to swap them. Dates written year first with slashes or dots are read
// too (a fourth WHEN, or the only one for such an example). "" for an
// example of another shape (a month name, epoch seconds), whose reading a
// plan cannot spell so simply. The profile's example of a shape it reads
// is taken over the least value, and the reading says how many values
// are of no such shape, with one of them: they stay NULL.
func dateFix(x planast.Expr, to planast.CastType, ex any, p *schema.ColumnProfile) (expr, reading string) {
	dc, _ := p.CastNull(planast.CastDate)
	if dc.ReorderableExample != nil {
		// the least value need not be of a shape the fix reads
		// ('2024-3-5' sorts before '27/02/2024'): one that is shows it
		ex = dc.ReorderableExample
	}
	expr, reading = reorderedDate(x, to, ex, p)
	if expr != "" && dc.OtherExample != nil && dc.Invalid > dc.Reorderable {
		reading += fmt.Sprintf("; %d values in other forms (such as %s) are none of those shapes and still read as NULL", dc.Invalid-dc.Reorderable, example(dc.OtherExample, planast.TypeText))
	}
	return expr, reading
}

// reorderedDate is dateFix's expression and reading for one example.
func reorderedDate(x planast.Expr, to planast.CastType, ex any, p *schema.ColumnProfile) (expr, reading string) {
	s, _ := ex.(string)
	col, err := planast.JSON(x)
	if err != nil {
		return "", ""
	}
	// year first with slashes or dots (2025/02/27) is ISO but for its
	// separators: a column typed by several hands holds them beside the
	// day-first ones, and the fix reads both
	lit := func(v string) string { return fmt.Sprintf(`{"kind": "literal", "value": %q}`, v) }
	yearFirst := fmt.Sprintf(`{"when": {"kind": "binary", "op": "or", "left": {"kind": "like", "expr": %[1]s, "pattern": %[2]s}, "right": {"kind": "like", "expr": %[1]s, "pattern": %[3]s}}, `+
		`"then": {"kind": "func", "name": "REPLACE", "args": [{"kind": "func", "name": "REPLACE", "args": [%[1]s, %[4]s, %[5]s]}, %[6]s, %[5]s]}}`,
		col, lit("____/__/__%"), lit("____.__.__%"), lit("/"), lit("-"), lit("."))
	if yearFirstDate.MatchString(s) {
		return fmt.Sprintf(`{"kind": "cast", "type": %q, "expr": {"kind": "case", "whens": [%s], "else": %s}}`, to, yearFirst, col),
			"the ____/__/__ and ____.__.__ ones with their separators made dashes"
	}
	m := numericDate.FindStringSubmatch(s)
	if m == nil {
		return "", ""
	}
	first, _ := strconv.Atoi(m[1])
	second, _ := strconv.Atoi(m[3])
	dayFirst, which := true, "the first as the day"
	cn, _ := p.CastNull(planast.CastDate)
	counted := fmt.Sprintf("%d values write the day first (a first part over 12) and %d the month first", cn.DayFirst, cn.MonthFirst)
	switch {
	case cn.MonthFirst > cn.DayFirst:
		// the column's own values decide, not the one example: 638 with
		// a second part over 12 and none with a first made a day-first
		// default read every ambiguous US date wrong
		dayFirst, which = false, "the second as the day, as the column writes it: "+counted
	case cn.DayFirst > 0:
		which += ", as the column writes it: " + counted
	case second > 12 && first <= 12:
		dayFirst, which = false, fmt.Sprintf("the second as the day, as %s shows", example(s, planast.TypeText))
	case first > 12:
		which = fmt.Sprintf("the first as the day, as %s shows", example(s, planast.TypeText))
	default:
		which += fmt.Sprintf(` (%s could be either: if the data writes the month first, swap the day and the month in the WHENs that read both parts as 12 or less)`, example(s, planast.TypeText))
	}
	sub := func(from, n int) string {
		return fmt.Sprintf(`{"kind": "func", "name": "SUBSTR", "args": [%s, {"kind": "literal", "value": %d}, {"kind": "literal", "value": %d}]}`, col, from, n)
	}
	// a part of one digit ('9/9/2025') is padded to two
	part := func(from, n int) string {
		if n == 2 {
			return sub(from, 2)
		}
		return fmt.Sprintf(`{"kind": "func", "name": "CONCAT", "args": [%s, %s]}`, lit("0"), sub(from, 1))
	}
	like := func(p string) string {
		return fmt.Sprintf(`{"kind": "like", "expr": %s, "pattern": {"kind": "literal", "value": %q}}`, col, p)
	}
	or := func(xs ...string) string {
		x := xs[0]
		for _, y := range xs[1:] {
			x = fmt.Sprintf(`{"kind": "binary", "op": "or", "left": %s, "right": %s}`, x, y)
		}
		return x
	}
	// the shapes the column writes (the profile's; two-digit parts alone
	// when it did not say), each read by the positions of its parts: a
	// column typed by several hands writes '15/02/2024' beside
	// '08-18-2024' and '3/7/2024'
	var whens []string
	oneDigit := false
	for _, sh := range schema.DateShapes {
		if len(cn.Shapes) == 0 && sh.Name != schema.DateShapes[0].Name || len(cn.Shapes) > 0 && !slices.Contains(cn.Shapes, sh.Name) {
			continue
		}
		oneDigit = oneDigit || sh.First == 1 || sh.Second == 1
		a, b := sh.First, sh.Second
		pattern := func(sep string) string {
			return strings.Repeat("_", a) + sep + strings.Repeat("_", b) + sep + "____%"
		}
		shaped := or(like(pattern("/")), like(pattern(".")), like(pattern("-")))
		iso := func(dayFirst bool) string {
			// a timestamp keeps what follows the date (' 08:15'): a date
			// reads the date alone
			rest := ""
			if to == planast.CastTimestamp {
				rest = fmt.Sprintf(`, {"kind": "func", "name": "SUBSTR", "args": [%s, {"kind": "literal", "value": %d}]}`, col, a+b+7)
			}
			day, month := part(1, a), part(a+2, b)
			if !dayFirst {
				day, month = month, day
			}
			return fmt.Sprintf(`{"kind": "func", "name": "CONCAT", "args": [%s, %s, %s, %s, %s%s]}`, sub(a+b+3, 4), lit("-"), month, lit("-"), day, rest)
		}
		over12 := func(at int) string {
			return fmt.Sprintf(`{"kind": "binary", "op": "and", "left": %s, "right": {"kind": "binary", "op": ">", "left": {"kind": "cast", "type": "integer", "expr": %s}, "right": {"kind": "literal", "value": 12}}}`, shaped, sub(at, 2))
		}
		if a == 2 {
			whens = append(whens, fmt.Sprintf(`{"when": %s, "then": %s}`, over12(1), iso(true)))
		}
		if b == 2 {
			whens = append(whens, fmt.Sprintf(`{"when": %s, "then": %s}`, over12(a+2), iso(false)))
		}
		if ws, said := bySeparator(cn.Orders, func(sep string) string { return like(pattern(sep)) }, iso); ws != "" {
			// a separator no value showed the order of keeps the majority's
			whens = append(whens, ws)
			which = said
		}
		whens = append(whens, fmt.Sprintf(`{"when": %s, "then": %s}`, shaped, iso(dayFirst)))
	}
	kept := ""
	if to == planast.CastTimestamp {
		kept = " (the time after the date kept)"
	}
	seps := "with slashes, dots or dashes"
	if oneDigit {
		seps += "; a day or month of one digit, as in 9/9/2025, padded"
	}
	read := fmt.Sprintf(`{"kind": "cast", "type": %q, "expr": {"kind": "case", "whens": [%s, %s], "else": %s}}`, to, strings.Join(whens, ", "), yearFirst, col)
	return read, fmt.Sprintf(`the NN/NN/YYYY ones (%s) reordered into ISO%s, reading a part over 12 as the day and, where both are 12 or less, %s; the ____/__/__ and ____.__.__ ones with their separators made dashes`, seps, kept, which)
}

// bySeparator writes the WHENs that read a date whose parts are both 12
// or less in the order its separator writes, when the separators write
// different orders ('15.02.2024' day first, '03/20/2024' month first: one
// order for the column read '03.04.2024' or '03/04/2024' in the wrong
// month), and says so; "" when they agree. A separator with no count
// (no part over 12) is left to the caller's WHEN after these.
func bySeparator(orders []schema.DateOrder, like func(sep string) string, iso func(dayFirst bool) string) (whens, said string) {
	monthFirst := func(o schema.DateOrder) bool { return o.MonthFirst > o.DayFirst }
	mixed := false
	for _, o := range orders[min(1, len(orders)):] {
		mixed = mixed || monthFirst(o) != monthFirst(orders[0])
	}
	if !mixed {
		return "", ""
	}
	var ws, parts []string
	for _, o := range orders {
		order := "day"
		if monthFirst(o) {
			order = "month"
		}
		ws = append(ws, fmt.Sprintf(`{"when": %s, "then": %s}`, like(o.Sep), iso(!monthFirst(o))))
		parts = append(parts, fmt.Sprintf("those with %q the %s first (%d values with a first part over 12, %d with a second)", o.Sep, order, o.DayFirst, o.MonthFirst))
	}
	return strings.Join(ws, ", "), "each the way its separator writes: " + strings.Join(parts, ", ")
}

// monthNameDates is what reads dates written with a month's name
// ("February27,2009"), which no cast reads and dateFix cannot spell as one
// expression; "" when ex is no such date.
func monthNameDates(ex any) string {
	if s, _ := ex.(string); source.MonthNameDate(s) {
		return "the date built from its parts (the year's four digits with SUBSTR, the month's number from a CASE over the months' names with LIKE, the day's digits between them; no cast reads a month's name), or reformat the values"
	}
	return ""
}

// isoDateText is text a filter compares with as a date: an ISO year,
// year-month or date, alone or as a LIKE pattern's start ('2025-03%').
var isoDateText = regexp.MustCompile(`^[0-9]{4}(-[0-9]{2}){0,2}([ T%].*)?$`)

// textDateFilters explain a filter that compares a text column of dates
// as text ('2025-03-01' <= issued, issued LIKE '2025-03%') while the
// column holds dates in other forms too ('05/03/2025'): those rows never
// match, whatever their date, so a month's total leaves them out and
// looks complete. The profile counts them (CastNulls); the warning names
// how many, one of them and, where it can, the expression that reads
// them as dates: when that one is a Unix time ('1711929600' beside ISO
// text), the reading of Unix times every warning gives
// (planast.UnixReading). A column of ISO timestamps written with 'T' and
// with a space, compared with a time, is told so too (spelledComparison),
// also of = and !=.
func textDateFilters(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	textComparisons(snap, plan, rangeOps|likeOps|equalOps, isoDateText, func(ref *planast.Column, c *schema.Column, lit string, cmp planast.Expr) {
		if c.Profile == nil {
			return
		}
		cn, ok := c.Profile.CastNull(planast.CastDate)
		if !ok || cn.Invalid == 0 {
			if w := spelledComparison(ref, c, cmp); w != "" && !slices.Contains(out, w) {
				out = append(out, w)
			}
			return
		}
		if seen[c] || isEquality(cmp) {
			return
		}
		seen[c] = true
		fix := "compare dates instead: cast the column to date (those values then read as NULL) or reformat them"
		// "never matches" was false of a range: '15/03/2023' < '2023-06-01'
		// holds, as text
		what, kind := fmt.Sprintf("%d values", cn.Invalid), " that are dates"
		if cn.Invalid == 1 {
			what, kind = "1 value", " that is a date"
		}
		such := example(cn.InvalidExample, planast.TypeText)
		if expr, reading := dateFix(ref, planast.CastDate, cn.InvalidExample, c.Profile); expr != "" {
			fix = fmt.Sprintf("compare dates instead: read the column as %s (%s) and compare it with a date literal", expr, reading)
		} else if at, unit, per, ok := planast.UnixTime(cn.InvalidExample); ok {
			// a loader that wrote time() beside ISO text: the profile of a
			// text column keeps only the least value no cast reads, so the
			// numbers are told by it, and the reading every warning on Unix
			// times gives reads them
			if reading, err := planast.JSON(planast.UnixReading(&planast.Column{Table: ref.Table, Column: ref.Column}, c.Type, planast.CastDate, per)); err == nil {
				kind = ""
				such += fmt.Sprintf(", which reads as a Unix time in %s: %s", unit, at.Format("2006-01-02 15:04:05"))
				fix = fmt.Sprintf("if they are Unix times, compare dates instead: read the column as %s and compare it with a date literal", reading)
			}
		}
		out = append(out, fmt.Sprintf("%s.%s is compared as text with %s, and %q holds %s in other forms than ISO (such as %s), which that comparison keeps or drops by their characters, never by their date; %s",
			ref.Table, ref.Column, example(lit, planast.TypeText), c.Name, what+kind, such, fix))
	})
	return out
}

// compareOps are the comparisons textComparisons finds.
type compareOps uint8

const (
	rangeOps compareOps = 1 << iota // <, <=, >, >=, BETWEEN
	likeOps                         // LIKE
	equalOps                        // =, !=
)

// isEquality reports whether cmp is an = or != comparison.
func isEquality(cmp planast.Expr) bool {
	b, ok := cmp.(*planast.Binary)
	return ok && (b.Op == planast.OpEq || b.Op == planast.OpNe)
}

// textComparisons calls f for each comparison cmp in plan (of ops) of a
// text column with string literals that all match shape; lit is the
// first literal's text.
func textComparisons(snap *schema.Snapshot, plan *planast.Query, ops compareOps, shape *regexp.Regexp, f func(ref *planast.Column, c *schema.Column, lit string, cmp planast.Expr)) {
	eachQuery(plan, func(q *planast.Query) {
		check := func(cmp, x planast.Expr, lits ...planast.Expr) {
			ref, ok := x.(*planast.Column)
			if !ok {
				return
			}
			for _, l := range lits {
				if lit, ok := l.(*planast.Literal); !ok || lit.Type != planast.TString || !shape.MatchString(lit.Text) {
					return
				}
			}
			if _, c := emptyrange.TableOfColumn(snap, q, ref); c != nil && c.Type == planast.TypeText {
				f(ref, c, lits[0].(*planast.Literal).Text, cmp)
			}
		}
		inspectQuery(q, func(e planast.Expr) {
			switch x := e.(type) {
			case *planast.Binary:
				want := rangeOps
				if x.Op == planast.OpEq || x.Op == planast.OpNe {
					want = equalOps
				}
				switch x.Op {
				case planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe, planast.OpEq, planast.OpNe:
					if col, lits := emptyrange.ColumnAndLiterals(x.Left, x.Right); col != nil && ops&want != 0 {
						check(x, col, lits[0])
					}
				}
			case *planast.Between:
				if ops&rangeOps != 0 {
					check(x, x.Expr, x.Low, x.High)
				}
			case *planast.Like:
				if ops&likeOps != 0 {
					check(x, x.Expr, x.Pattern)
				}
			}
		})
	})
}

// spelledTwoWays says how text column c writes its timestamps when some
// write 'T' before the time and some a space (the profile's Spellings),
// and why that matters; "" when it writes them one way. A cast to
// timestamp reads both, and text orders 'T' after ' ': a comparison of
// the text, MIN, MAX and ORDER BY of it go wrong within a day, on ISO
// text that every other warning takes for well written.
func spelledTwoWays(c *schema.Column) string {
	if c.Type != planast.TypeText || c.Profile == nil {
		return ""
	}
	sp := c.Profile.Spellings
	if sp == nil || sp.T == 0 || sp.Space == 0 {
		return ""
	}
	way := func(n int64, how string, ex any) string {
		s := fmt.Sprintf("%d with %s", n, how)
		if ex != nil {
			s += ", such as " + example(ex, planast.TypeText)
		}
		return s
	}
	return fmt.Sprintf("%q writes its timestamps two ways (%s; %s), and text orders 'T' after ' '",
		c.Name, way(sp.T, "'T' before the time", sp.TExample), way(sp.Space, "a space", sp.SpaceExample))
}

// asInstant is the column ref read as a timestamp, which reads both
// spellings as the same instant.
func asInstant(ref *planast.Column) *planast.Cast {
	return &planast.Cast{Type: planast.CastTimestamp, Expr: &planast.Column{Table: ref.Table, Column: ref.Column}}
}

// instantLiteral is lit, ISO text of a date or a time, as the timestamp
// literal a cast of the column compares with: the 'T' made a space, a Z
// or UTC offset read as the instant in UTC (as the cast reads the
// column's), a date alone at midnight; nil when it reads as none.
func instantLiteral(lit string) *planast.Literal {
	s := strings.TrimSpace(lit)
	if utc := utcOf(s); utc != "" {
		s = utc
	}
	if len(s) > 10 && s[10] == 'T' {
		s = s[:10] + " " + s[11:]
	}
	switch len(s) {
	case 10:
		s += " 00:00:00"
	case 16:
		s += ":00"
	}
	if !planast.IsTimestampLiteral(s) {
		return nil
	}
	return &planast.Literal{Type: planast.TTimestamp, Text: s}
}

// timed reports whether the ISO text s writes a time after its date,
// after 'T' or a space: only then does the spelling decide a comparison.
func timed(s string) bool {
	return len(s) > 10 && (s[10] == 'T' || s[10] == ' ')
}

// spelledComparison explains comparison cmp (of textComparisons) of the
// text column ref (c) with a literal that writes a time, when c writes
// its timestamps two ways (spelledTwoWays): '2024-01-03T01:34:09Z' is
// after '2024-01-03 23:59:59' as text, so "up to the end of the 3rd"
// dropped it, and no text of one spelling equals the other. The fix is
// the comparison itself with the column read as timestamp and the
// literals as timestamp literals, as plan JSON; "" when there is nothing
// to say.
func spelledComparison(ref *planast.Column, c *schema.Column, cmp planast.Expr) string {
	ways := spelledTwoWays(c)
	if ways == "" {
		return ""
	}
	lost := false // a literal that reads as no instant
	read := func(e planast.Expr) planast.Expr {
		switch x := e.(type) {
		case *planast.Column:
			if x == ref {
				return asInstant(ref)
			}
		case *planast.Literal:
			if x.Type == planast.TString {
				if l := instantLiteral(x.Text); l != nil {
					return l
				}
				lost = true
			}
		}
		return e
	}
	var fixed planast.Expr
	what := ""
	switch x := cmp.(type) {
	case *planast.Binary:
		_, lits := emptyrange.ColumnAndLiterals(x.Left, x.Right)
		if len(lits) == 0 || !timed(lits[0].Text) {
			return ""
		}
		what = example(lits[0].Text, planast.TypeText)
		fixed = &planast.Binary{Op: x.Op, Left: read(x.Left), Right: read(x.Right)}
	case *planast.Between:
		lo, _ := x.Low.(*planast.Literal)
		hi, _ := x.High.(*planast.Literal)
		if lo == nil || hi == nil || !timed(lo.Text) && !timed(hi.Text) {
			return ""
		}
		what = example(lo.Text, planast.TypeText) + " and " + example(hi.Text, planast.TypeText)
		fixed = &planast.Between{Expr: read(x.Expr), Low: read(x.Low), High: read(x.High), Negated: x.Negated}
	case *planast.Like:
		p, _ := x.Pattern.(*planast.Literal)
		if p == nil || !timed(p.Text) {
			return ""
		}
		what = example(p.Text, planast.TypeText)
		// a day's pattern ('2024-01-03 %') is that day's instants
		if day, err := time.Parse(time.DateOnly, p.Text[:10]); err == nil && p.Text[11:] == "%" && !x.Negated && !x.CaseInsensitive {
			at := func(t time.Time) *planast.Literal {
				return &planast.Literal{Type: planast.TTimestamp, Text: t.Format(time.DateTime)}
			}
			fixed = &planast.Binary{Op: planast.OpAnd,
				Left:  &planast.Binary{Op: planast.OpGe, Left: asInstant(ref), Right: at(day)},
				Right: &planast.Binary{Op: planast.OpLt, Left: asInstant(ref), Right: at(day.AddDate(0, 0, 1))}}
		}
	default:
		return ""
	}
	fix := ""
	if j, err := planast.JSON(fixed); err == nil && fixed != nil && !lost {
		fix = "compare instants instead, the column read as timestamp with a timestamp literal: " + string(j)
	} else {
		col, _ := planast.JSON(asInstant(ref))
		fix = fmt.Sprintf("compare instants instead: read the column as %s and compare it with timestamp literals (YYYY-MM-DD HH:MM:SS, in UTC)", col)
	}
	return fmt.Sprintf("%s.%s is compared as text with %s, and %s, so within a day a value written the other way than the literal falls on the wrong side of it and never equals it; %s",
		ref.Table, ref.Column, what, ways, fix)
}
