package warnings

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/currency"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// mixedWarnings name each column the plan read as its type because some of
// its stored values are not of it (planast.Column.ReadAs: 'abc' in a SQLite
// INTEGER column), and each text column the plan casts to a date, a
// timestamp or a number while some of its values hold none (the text-cast
// rule: '05/01/2024' and 'n/a' cast to date). Either way those values were
// read as NULL, so they counted in no sum, average, comparison or group,
// and a user who expected them there is told how many there are and what
// one looks like; and MIN or MAX of a text column of dates in several
// forms, which compares text (textExtreme). The count and the example
// come from the profile, which a caller behind a row filter does not get:
// such a caller hears only
// that a column read as its type holds some, and nothing of a cast (the
// profile alone knows whether any value is lost to it).
func mixedWarnings(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	type key struct {
		c  *schema.Column
		to planast.CastType
	}
	seen := map[key]bool{}
	fixed := map[*schema.Column]planast.CastType{} // the cast whose warning spelt a reading out
	eachQuery(plan, func(q *planast.Query) {
		guards := guardedCasts(q)
		var asText map[*planast.Column]bool // read as the text stored (render's cast to text); built for the rare plan that reads a column as its type
		inspectQuery(q, func(n planast.Expr) {
			switch x := n.(type) {
			case *planast.Column:
				if x.ReadAs == "" {
					break
				}
				if asText == nil {
					asText = textCastColumns(q)
				}
				if asText[x] || mended(q, x) {
					// a plan that reads the values its type cannot with the
					// warning's own reading (COALESCE(col, FROM_EPOCH_SECONDS(
					// CAST(col AS text)))) is told nothing it did not do
					break
				}
				// a column read only because some booleans are spelt as
				// text loses no value: its reading is the fix, no warning
				if _, c := emptyrange.TableOfColumn(snap, q, x); c != nil && !seen[key{c, ""}] && (c.Profile == nil || c.Profile.Invalid > 0) {
					seen[key{c, ""}] = true
					out = append(out, mixedWarning(x, c))
				}
			case *planast.Func:
				if w := textExtreme(snap, q, x); w != "" && !slices.Contains(out, w) {
					out = append(out, w)
				}
			case *planast.Cast:
				ref, ok := x.Expr.(*planast.Column)
				if _, guarded := guards[x]; !ok || !x.FromText || guarded {
					break // a cast in a CASE branch: CastProbe counts its rows
				}
				t, c := emptyrange.TableOfColumn(snap, q, ref)
				if c == nil || c.Type != planast.TypeText || seen[key{c, x.Type}] {
					break
				}
				seen[key{c, x.Type}] = true
				reader := "the cast to " + string(x.Type)
				if epochArg(q, x) {
					reader = "FROM_EPOCH_SECONDS" // the cast is the validator's, not the plan's
				}
				if cn, ok := c.Profile.CastNull(x.Type); ok && cn.Invalid > 0 {
					fix := amountFix(x, append([]any{cn.InvalidExample}, c.Profile.SampleValues...))
					if first, ok := fixed[c]; ok {
						// the reading is kilobytes of plan: spelt out once
						// a column, where a date and a timestamp cast of it
						// repeated it whole
						fix = fmt.Sprintf("; the reading the warning on its cast to %s spells out reads them too, cast to %s", first, x.Type)
					} else if expr, reading := dateFix(ref, x.Type, cn.InvalidExample, c.Profile); expr != "" {
						fix = fmt.Sprintf("; to read them too, read the column as %s (%s)", expr, reading)
						fixed[c] = x.Type
					} else if ef := epochFix(ref, c, cn.InvalidExample, x.Type); ef != "" {
						fix = ef
					}
					out = append(out, castNullWarning(c, notOf(cn.Invalid, cn.InvalidExample, cn.To, planast.TypeText), reader, fix))
				} else if what := uncountedNumbers(t, c, x.Type); what != "" {
					out = append(out, castNullWarning(c, what, reader, ""))
				}
			}
		})
	})
	return out
}

// castNullWarning says that column c holds what (values of no type a
// cast reads), which reader (the cast to date, FROM_EPOCH_SECONDS) read as
// NULL; fix is how to read them too, if any.
func castNullWarning(c *schema.Column, what, reader, fix string) string {
	return fmt.Sprintf("%q holds %s; %s read them as NULL, so they count in no COUNT, sum, average or comparison and group as NULL%s",
		c.Name, what, reader, fix)
}

// textCastColumns are the columns of q cast to text directly: render
// reads such a column's values its type cannot read as their stored text.
func textCastColumns(q *planast.Query) map[*planast.Column]bool {
	out := map[*planast.Column]bool{}
	planast.Inspect(q, func(n planast.Node) bool {
		if x, ok := n.(*planast.Cast); ok && x.Type == planast.CastText {
			if ref, ok := x.Expr.(*planast.Column); ok {
				out[ref] = true
			}
		}
		return true
	})
	return out
}

// mended reports whether x is the first argument of a COALESCE in q
// whose later arguments read x's column as its stored text: the column
// read as its type, and the values it cannot read taken from their text.
func mended(q *planast.Query, x *planast.Column) bool {
	found := false
	planast.Inspect(q, func(n planast.Node) bool {
		f, ok := n.(*planast.Func)
		if found || !ok || f.Name != "COALESCE" || len(f.Args) < 2 || f.Args[0] != planast.Expr(x) {
			return !found
		}
		for _, a := range f.Args[1:] {
			planast.Inspect(a, func(n planast.Node) bool {
				if c, ok := n.(*planast.Cast); ok && c.Type == planast.CastText {
					if ref, ok := c.Expr.(*planast.Column); ok && ref.Table == x.Table && ref.Column == x.Column {
						found = true
					}
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// mixedWarning says that column c, read as its type by ref, holds
// values that type cannot read, with the reading of its Unix times when
// it holds some (epochFix), or of its dates written otherwise
// (otherDatesFix), which reads the Unix times too.
func mixedWarning(ref *planast.Column, c *schema.Column) string {
	what, fix := "values that are not "+typeNoun(c.Type, true), ""
	if p := c.Profile; p != nil && p.Invalid > 0 {
		what = notOf(p.Invalid, p.InvalidExample, c.Type, c.Type)
		if c.Type.IsTemporal() {
			fix = epochFix(ref, c, p.InvalidExample, "")
			if f := otherDatesFix(ref, c); f != "" {
				fix = f
			}
		}
	}
	return fmt.Sprintf("%q holds %s; the plan read them as NULL, so they count in no COUNT of the column, sum, average, comparison or group (PostgreSQL and DuckDB could not store them); the column cast to text shows them as stored%s",
		c.Name, what, fix)
}

// otherDatesFix reads, as plan JSON, the values of date or timestamp
// column c (ref) that are dates written in another form than ISO
// ('15/01/2024' in a SQLite DATE column: schemactx.Unread) along with
// the others: dateFix's reordering of the column cast to text, which is
// the text stored for such a value and the value read as its type for
// the others (render's cast of a column read as its type), and of the
// Unix times the column also holds, if any, their reading (UnixReading's)
// where that is NULL. The latest purchase, stored as '15/01/2024', was
// no MAX of the column read as its type; "" when no such value is of a
// shape dateFix reads.
func otherDatesFix(ref *planast.Column, c *schema.Column) string {
	n, ex, _ := schemactx.Unread(c)
	if _, text := ex.(string); n == 0 || !text {
		return ""
	}
	col := &planast.Column{Table: ref.Table, Column: ref.Column}
	to := planast.CastDate
	if c.Type == planast.TypeTimestamp {
		to = planast.CastTimestamp
	}
	expr, reading := dateFix(&planast.Cast{Type: planast.CastText, Expr: col}, to, ex, c.Profile)
	if expr == "" {
		return ""
	}
	what := fmt.Sprintf("%d of them are dates in other forms than ISO (such as %s)", n, example(ex, planast.TypeText))
	if n == 1 {
		what = fmt.Sprintf("1 of them is a date in another form than ISO (%s)", example(ex, planast.TypeText))
	}
	if un, from, last, unit, per, ok := c.Profile.UnixTimes(); ok {
		u, isFunc := planast.UnixReading(col, c.Type, "", per).(*planast.Func)
		epoch, err := planast.JSON(u.Args[len(u.Args)-1])
		if !isFunc || err != nil {
			return ""
		}
		expr = fmt.Sprintf(`{"kind": "func", "name": "COALESCE", "args": [%s, %s]}`, expr, epoch)
		what += fmt.Sprintf(" and %d numbers that read as Unix %s (%s)", un, unit, unixSpan(from, last))
		reading += "; where that is NULL, the text as Unix " + unit
	}
	return fmt.Sprintf("; %s: to read them too, read the column as %s (the column cast to text, %s)", what, expr, reading)
}

// unixSpan is the dates Unix times span, "2024-02-01 to 2024-04-01" or
// one date.
func unixSpan(from, last time.Time) string {
	span := from.Format("2006-01-02")
	if !last.Equal(from) {
		span += " to " + last.Format("2006-01-02")
	}
	return span
}

// epochFix reads the values of column c (ref in the plan) that are
// numbers as Unix times, as plan JSON (planast.UnixReading, the reading
// every warning on them gives). to is "" for a date or timestamp column
// read as its type: DATETIME columns that loaders filled with time() hold
// such numbers beside ISO text, which the profile counts and spans
// (UnixTimes). Else to is the type a text column is cast to, whose
// profile keeps no numbers apart: the example of the values the cast
// lost (ex) decides, when it looks like a Unix time (planast.UnixTime).
func epochFix(ref *planast.Column, c *schema.Column, ex any, to planast.CastType) string {
	if to != "" && to != planast.CastDate && to != planast.CastTimestamp {
		return ""
	}
	col := &planast.Column{Table: ref.Table, Column: ref.Column}
	if to == "" {
		n, from, last, unit, per, ok := c.Profile.UnixTimes()
		if !ok {
			return ""
		}
		reading, err := planast.JSON(planast.UnixReading(col, c.Type, "", per))
		if err != nil {
			return ""
		}
		what, span := fmt.Sprintf("%d of them are numbers that read", n), unixSpan(from, last)
		if n == 1 {
			what = "1 of them is a number that reads"
		}
		return fmt.Sprintf("; %s as Unix %s (%s): to read them too, read the column as %s",
			what, unit, span, reading)
	}
	_, unit, per, ok := planast.UnixTime(ex)
	if !ok {
		return ""
	}
	reading, err := planast.JSON(planast.UnixReading(col, c.Type, to, per))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("; if they are %s since 1970 (Unix time, such as %s), read them too as %s",
		unit, example(ex, planast.TypeText), reading)
}

// notOf says that n values (the least of them ex, nil when unknown) are
// not of type t; ex is shown as a value of type stored.
func notOf(n int64, ex any, t, stored planast.Type) string {
	what := fmt.Sprintf("%d values that are not %s", n, typeNoun(t, true))
	if n == 1 {
		what = "1 value that is not " + typeNoun(t, false)
	}
	var notes []string
	if ex != nil {
		notes = append(notes, "such as "+example(ex, stored))
	}
	if sh := readShape(t); sh != "" {
		notes = append(notes, sh)
	}
	if len(notes) > 0 {
		what += " (" + strings.Join(notes, "; ") + ")"
	}
	return what
}

// readShape says which text reads as a date or timestamp, on every
// engine: a value with a UTC offset or a day-first date looks valid to a
// person and is not, and the one example shown may be of another kind.
func readShape(t planast.Type) string {
	switch t {
	case planast.TypeDate:
		return `a date reads from ISO text "YYYY-MM-DD", a time of day after it allowed`
	case planast.TypeTimestamp:
		return `a timestamp reads from ISO text "YYYY-MM-DD HH:MM:SS" or with T, seconds and their fraction optional, Z or a UTC offset (+02:00) read as the instant in UTC`
	}
	return ""
}

// example is a stored value quoted as data, at most 40 characters of it;
// one that is no text (45000 in a DATE column, a blob) by the one value
// rule.
func example(v any, t planast.Type) string {
	s, ok := v.(string)
	if !ok {
		return cellfmt.Value(v, t)
	}
	if r := []rune(s); len(r) > 40 {
		return cellfmt.Quote(string(r[:40])) + "…"
	}
	return cellfmt.Quote(s)
}

func typeNoun(t planast.Type, plural bool) string {
	n := map[planast.Type]string{planast.TypeInteger: "an integer", planast.TypeDecimal: "a number", planast.TypeFloat: "a number",
		planast.TypeDate: "a valid date", planast.TypeTimestamp: "a valid timestamp"}[t]
	if n == "" {
		n = "a " + string(t) + " value"
	}
	if plural {
		_, n, _ = strings.Cut(n, " ")
		n += "s"
	}
	return n
}

// amountFix tells how to cast amounts written for people ('$1,200.00',
// 'EUR 2.49', '45,00 €') to a number: remove what is not part of the
// number with REPLACE first. It reads every example given (the profile's
// example of a value the cast lost and its samples that are no plain
// number), so a column writing '€2.29', 'EUR 2.29' and '2,29' gets one
// cast for all of them. Examples written with a decimal comma ('€1.234,50',
// '50,00') have their dots removed and their comma made a point instead:
// removing the comma would read them a hundred times too large; when the
// column writes both kinds of comma, the more frequent decides and the
// warning says so. "" when no example is such an amount, or for a cast to
// a date.
func amountFix(c *planast.Cast, examples []any) string {
	if c.Type != planast.CastInteger && c.Type != planast.CastDecimal && c.Type != planast.CastFloat {
		return ""
	}
	type edit struct{ from, to string }
	var edits []edit
	add := func(from, to string) {
		if !slices.Contains(edits, edit{from, to}) {
			edits = append(edits, edit{from, to})
		}
	}
	// the examples that hold digits and do not read as a number as they are
	var amounts []string
	for _, ex := range examples {
		s, ok := ex.(string)
		if !ok || !strings.ContainsAny(s, "0123456789") {
			continue
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			continue
		}
		amounts = append(amounts, s)
	}
	decimal, thousands := 0, 0
	var codes []string
	for _, s := range amounts {
		if decimalComma.MatchString(s) {
			decimal++
		} else if strings.Contains(s, ",") {
			thousands++
		}
		for _, m := range currencyCode.FindAllString(s, -1) {
			m = strings.TrimSpace(m)
			// an ISO 4217 code only: 'lbs' and 'pcs' are units, which no
			// removal makes one number
			if _, err := currency.ParseISO(m); err == nil && !slices.Contains(codes, m) {
				codes = append(codes, m)
			}
		}
	}
	comma := decimal > thousands
	// codes first: 'EUR' goes before the space that followed it
	for _, code := range codes {
		add(code, "")
	}
	// a unit after the number ('103.5 kg') is removed when the examples
	// write one unit alone: several ('kg', 'lbs') need converting, which
	// no removal does (the units warning says how)
	if unit := oneUnit(amounts); unit != "" && len(codes) == 0 {
		add(unit, "")
	}
	for _, s := range amounts {
		for _, r := range s {
			switch {
			case r == ',' && !comma, r == '%' || unicode.Is(unicode.Sc, r):
				add(string(r), "")
			case r == ' ' && (len(codes) > 0 || spaceGroups.MatchString(s)):
				add(" ", "")
			}
		}
	}
	if comma {
		if slices.ContainsFunc(amounts, func(s string) bool { return decimalComma.MatchString(s) && strings.Contains(s, ".") }) {
			add(".", "")
		}
		add(",", ".")
	}
	if len(edits) == 0 {
		return ""
	}
	arg, _ := planast.JSON(c.Expr)
	x := string(arg)
	said := make([]string, len(edits))
	for i, e := range edits {
		x = fmt.Sprintf(`{"kind": "func", "name": "REPLACE", "args": [%s, {"kind": "literal", "value": %q}, {"kind": "literal", "value": %q}]}`, x, e.from, e.to)
		said[i] = fmt.Sprintf("remove %q", e.from)
		if e.to != "" {
			said[i] = fmt.Sprintf("make %q %q", e.from, e.to)
		}
	}
	// the examples are a sample: others may be written otherwise ('1,199.50'
	// beside '29,99'), and a cast reads each it cannot as NULL
	sep := "; a comma removed is read as a thousands separator, so a decimal comma ('50,00') would become 5000: if the column writes any, make their ',' a '.' instead"
	if comma {
		sep = "; a comma is read as the decimal point, so a thousands comma ('1,234.50') would read wrong: if the column writes any, remove their ',' instead"
	}
	if decimal > 0 && thousands > 0 {
		sep = fmt.Sprintf("; the column writes both a decimal comma (in %d of its sampled values) and a thousands comma (in %d): the cast above reads the more frequent kind, so read the others apart, e.g. with a case on whether the value has a comma two places from its end", decimal, thousands)
	} else if decimal == 0 && thousands == 0 {
		sep = ""
	}
	return fmt.Sprintf("; such values are amounts written for people: %s before the cast, e.g. cast %s; other forms still read as NULL after it, so check that COUNT of the cast equals COUNT of the column%s", strings.Join(said, ", "), x, sep)
}

// unitAfter is a number with a unit of letters after it ('103.5 kg',
// '12kg', '3 pcs.'): the unit is the submatch.
var unitAfter = regexp.MustCompile(`^\s*[-+]?[0-9][0-9.,' ]*\s*(\p{L}{1,5})\.?\s*$`)

// oneUnit is the unit every example with one writes after its number,
// as the first writes it ('kg' for '103.5 kg' and '12 kg'); "" when none
// writes one, when they write several (compared ignoring case, as 'KG'
// and 'kg' are one unit, so the first spelling alone would leave the
// other), or when it is a currency code.
func oneUnit(amounts []string) string {
	unit := ""
	for _, s := range amounts {
		m := unitAfter.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		if _, err := currency.ParseISO(m[1]); err == nil && strings.ToUpper(m[1]) == m[1] {
			return ""
		}
		if unit != "" && m[1] != unit {
			return ""
		}
		unit = m[1]
	}
	return unit
}

// spaceGroups is an amount whose digits are grouped by spaces ('1 234,50').
var spaceGroups = regexp.MustCompile(`[0-9]{1,3}( [0-9]{3})+`)

// currencyCode is a three-letter code in capitals written before or after
// an amount ('EUR 2.49', '45 USD'); lower case ('12 kgs') is a unit.
var currencyCode = regexp.MustCompile(`^\s*[A-Z]{3}\b|\b[A-Z]{3}\s*$`)

// decimalComma is an amount written with a decimal comma: digits, dots
// between groups of three at most, a comma and one or two digits, signs
// around ('€1.234,50', '50,00 €', '12,5%').
var decimalComma = regexp.MustCompile(`^[^0-9,]*[0-9]{1,3}(\.[0-9]{3})*,[0-9]{1,2}[^0-9,.]*$|^[^0-9,.]*[0-9]+,[0-9]{1,2}[^0-9,.]*$`)

// textDateOrders names an order_by on a text column (or the alias of one)
// that holds dates in other forms than ISO: text orders character by
// character, so "the five latest appointments" came back as '30 Jun
// 2025', '29 Jan 2025', '28 May 2025' ahead of 2025-06-30 and 2025-06-29,
// with only a note of UTC offsets, where MIN, MAX and comparisons of the
// same column were warned of. The fix orders by the dates read as such (as
// timestamps when the column writes times). A column of ISO timestamps
// written with 'T' and with a space (spelledTwoWays) is ordered wrong
// within a day, and read as timestamps the fix.
func textDateOrders(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		orderedColumns(q, func(ref *planast.Column) {
			c := emptyrange.FromColumn(snap, q, ref)
			if c == nil || c.Type != planast.TypeText || seen[c] || c.Profile == nil {
				return
			}
			cn, ok := c.Profile.CastNull(planast.CastDate)
			if !ok || cn.Invalid == 0 {
				if ways := spelledTwoWays(c); ways != "" {
					seen[c] = true
					read, _ := planast.JSON(asInstant(ref))
					out = append(out, fmt.Sprintf("order_by on %s.%s orders its text, and %s, so within a day the rows are not in the order of their times; order by %s instead",
						ref.Table, ref.Column, ways, read))
				}
				return
			}
			seen[c] = true
			out = append(out, fmt.Sprintf("order_by on %s.%s orders its text, and %s: text orders character by character, so the first rows are not the earliest or the latest; %s",
				ref.Table, ref.Column, otherDateForms(c, cn), byDates("order by", ref, c, cn)))
		})
	})
	return out
}

// byDates is the fix of an order_by or group_by (verb) on text column c
// (ref) of dates in several forms (cn): by dateFix's reading of the
// column, as timestamps when it writes times, or else how to read them.
func byDates(verb string, ref *planast.Column, c *schema.Column, cn schema.CastNulls) string {
	to := planast.CastDate
	if writesTimes(c.Profile) {
		to = planast.CastTimestamp
	}
	if expr, reading := dateFix(ref, to, cn.InvalidExample, c.Profile); expr != "" {
		return fmt.Sprintf("%s %s instead (%s)", verb, expr, reading)
	}
	if m := monthNameDates(cn.InvalidExample); m != "" {
		return verb + " " + m
	}
	return fmt.Sprintf("%s the column cast to %s (those values then read as NULL) or reformat them", verb, to)
}

// writesTimes reports whether a sample of a text column of dates writes a
// time of day after the date ('05/03/2025 08:15', '2025-03-05T08:15').
func writesTimes(p *schema.ColumnProfile) bool {
	for _, v := range p.SampleValues {
		if s, ok := v.(string); ok && len(s) > 10 && strings.Contains(s[10:], ":") {
			return true
		}
	}
	return false
}

// textExtreme explains MIN or MAX of a text column holding dates in more
// than one form ('2024-01-05' and '05/01/2024'): they compare as text, so
// '05/01/2024' is the "latest" of them whatever day it is. The profile
// knows from the values a cast to date reads as NULL (CastNulls), which
// it counts for a column whose values mostly look like dates. So too of
// ISO timestamps written with 'T' and with a space (spelledTwoWays):
// '2024-12-31T09:56:45Z' is the greatest text where '2024-12-31
// 10:53:32' is the latest. "" for any other call.
func textExtreme(snap *schema.Snapshot, q *planast.Query, f *planast.Func) string {
	name := strings.ToUpper(f.Name)
	if name != "MIN" && name != "MAX" || len(f.Args) != 1 {
		return ""
	}
	ref, ok := f.Args[0].(*planast.Column)
	if !ok {
		return ""
	}
	_, c := emptyrange.TableOfColumn(snap, q, ref)
	if c == nil || c.Type != planast.TypeText || c.Profile == nil {
		return ""
	}
	cn, ok := c.Profile.CastNull(planast.CastDate)
	if !ok || cn.Invalid == 0 {
		if ways := spelledTwoWays(c); ways != "" {
			read, _ := planast.JSON(&planast.Func{Name: name, Args: []planast.Expr{asInstant(ref)}})
			return fmt.Sprintf("%s(%s.%s) compares text, and %s, so within a day the %s text need not be the %s timestamp; take %s of the column read as timestamp instead: %s",
				name, ref.Table, ref.Column, ways, map[string]string{"MIN": "least", "MAX": "greatest"}[name], map[string]string{"MIN": "earliest", "MAX": "latest"}[name], name, read)
		}
		return ""
	}
	fix := "cast it to date for the ISO ones (the others read as NULL), or compare a reformatted value"
	if expr, reading := dateFix(ref, planast.CastDate, cn.InvalidExample, c.Profile); expr != "" {
		fix = fmt.Sprintf("compare dates instead: %s of %s (%s)", name, expr, reading)
	} else if m := monthNameDates(cn.InvalidExample); m != "" {
		fix = "compare dates instead: " + name + " of " + m
	}
	return fmt.Sprintf("%s(%s.%s) compares text, and %q holds dates in other forms than ISO (%d values, such as %s), so the %s text need not be the %s date; %s",
		name, ref.Table, ref.Column, c.Name, cn.Invalid, example(cn.InvalidExample, planast.TypeText),
		map[string]string{"MIN": "least", "MAX": "greatest"}[name], map[string]string{"MIN": "earliest", "MAX": "latest"}[name], fix)
}
