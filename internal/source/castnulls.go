package source

import (
	"context"
	"fmt"
	"github.com/nl2sql/nl2sql/internal/numtext"
	"regexp"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// A cast of text to a date, a timestamp or a number reads a value that
// holds none as NULL on every engine (render/textcast.go), so a plan that
// counts or groups a text column of dates by casting it silently loses
// '05/01/2024' and 'n/a'. Profiling counts those values, with the SQL the
// cast itself runs (render.CastValid), so the result can say how many
// there are and show one (engine/warnings). It counts them only for a
// text column whose samples mostly hold dates or mostly numbers
// (castTargets): the count is an extra scan of the table, spent on the
// columns a plan would cast.

// castTargets are the casts whose NULLs profiling counts for a text column
// with profile p (its samples known): date and timestamp when its string
// samples hold more dates, or values that look like one written another
// way (05/01/2024, 2024/01/05, 5.1.2024: a column of those, cast to date,
// is nearly all NULL, which is when saying so matters most), than numbers;
// a number (TypeFloat) when one holds a number or an amount written for
// people (numberLike); none when no sample does. One sample is enough: a
// column of codes ('A-36') with some bare numbers ('36') is what a plan
// casts to join on, and the cast reads the codes as NULL.
func castTargets(c *schema.Column, p *schema.ColumnProfile) []planast.CastType {
	if c.Type != planast.TypeText || p == nil {
		return nil
	}
	dates, numbers := 0, 0
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if planast.TextHolds(s, planast.CastDate) || dateLike.MatchString(s) || MonthNameDate(s) {
			dates++
		} else if NumberText(s) {
			numbers++
		}
	}
	switch {
	case dates > 0 && dates >= numbers:
		return []planast.CastType{planast.CastDate, planast.CastTimestamp}
	case numbers > 0:
		return []planast.CastType{planast.CastFloat}
	}
	return nil
}

// numberLike is an amount or a quantity written for people: a currency
// sign or code, thousands separators, a percent sign, parentheses for a
// negative, a unit after it ('$1,200.00', '€ 85', '12.5%', '(300)',
// '1 200,50', '12,5kg', '0.225 t', '800 lbs'). A cast reads each as NULL,
// so a column of them summed after a cast is nearly all NULL, which is
// when saying so matters most.
var numberLike = regexp.MustCompile(`^\s*[-+(]?\s*(\p{Sc}|[A-Z]{3}\s)?\s*[0-9][0-9,.' \x{00a0}]*\s*(%|\p{Sc}|\p{L}{1,5}\.?)?\)?\s*$`)

// NumberText reports whether s is a number, or one written for people
// (numberLike): what makes a text column one of numbers. Digits with two
// marks or more that fit no reading of a number (numtext.Value) are none:
// an IP address or a version ('10.0.0.1', '2.10.3') noted as an
// unreadable number cost a planner's context for nothing ('0,125' keeps
// its one mark, a decimal comma).
func NumberText(s string) bool {
	if run := markedDigits.FindString(s); strings.Count(run, ".")+strings.Count(run, ",") >= 2 {
		if _, ok := numtext.Value(run); !ok {
			return false
		}
	}
	return planast.TextHolds(s, planast.CastFloat) || numberLike.MatchString(s)
}

// markedDigits is a run of digits with points or commas inside.
var markedDigits = regexp.MustCompile(`[0-9]+([.,][0-9]+)+`)

// dateLike is a date written with separators in another order or shape
// than ISO's: day or month first, slashes or dots, one separator used
// twice, a year of four digits first or of two or four last, an optional
// time after. A rating of "1.5/4" or a score of "3-1" is none.
var dateLike = regexp.MustCompile(`^\s*([0-9]{4}/[0-9]{1,2}/[0-9]{1,2}|[0-9]{4}\.[0-9]{1,2}\.[0-9]{1,2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}|` +
	`[0-9]{1,2}/[0-9]{1,2}/([0-9]{2}|[0-9]{4})|[0-9]{1,2}\.[0-9]{1,2}\.([0-9]{2}|[0-9]{4})|[0-9]{1,2}-[0-9]{1,2}-([0-9]{2}|[0-9]{4}))([ T].*)?$`)

// MonthNameDate reports whether s is a date written with its month's name
// ("February27,2009", "27 Feb 2025", "Monday, March 3rd, 2025"): a year
// of four digits, a day of one or two digits or none, the name of a month
// or its first three letters, maybe a weekday's, ordinal endings and "of";
// nothing else but spaces and punctuation. No cast reads one, and text
// orders them by the month's name ("April" before "February").
func MonthNameDate(s string) bool {
	if len(s) > 40 {
		return false
	}
	years, days, months := 0, 0, 0
	for _, run := range runs(strings.ToLower(s)) {
		switch {
		case run[0] >= '0' && run[0] <= '9':
			switch {
			case len(run) == 4 && (run[0] == '1' || run[0] == '2'):
				years++
			case len(run) <= 2:
				days++
			default:
				return false
			}
		case monthNames[run]:
			months++
		case !dateWords[run]:
			return false
		}
	}
	return years == 1 && months == 1 && days <= 1
}

// runs splits s into its runs of letters and of digits.
func runs(s string) []string {
	var out []string
	start, kind := -1, 0
	for i, r := range s {
		k := 0
		switch {
		case unicode.IsLetter(r):
			k = 1
		case unicode.IsDigit(r):
			k = 2
		}
		if k != kind && start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
		if k != 0 && start < 0 {
			start = i
		}
		kind = k
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// monthNames are the English months' names and first three letters;
// dateWords the other words a date written for people holds.
var monthNames, dateWords = func() (map[string]bool, map[string]bool) {
	m, w := map[string]bool{}, map[string]bool{"st": true, "nd": true, "rd": true, "th": true, "of": true}
	for _, n := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		m[n], m[n[:3]] = true, true
	}
	m["sept"] = true
	for _, n := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		w[n], w[n[:3]] = true, true
	}
	return m, w
}()

// dateSeps are the separators of the dates a plan reorders into ISO
// (DD/MM/YYYY, DD.MM.YYYY, DD-MM-YYYY), in the order CastNulls.Orders
// lists them.
var dateSeps = []string{"/", ".", "-"}

// offsetDay marks the count of timestamps whose written day is not their
// day in UTC (schema.ColumnProfile.OffsetDays), counted with the casts.
const offsetDay planast.CastType = "offset_day"

// spelled marks the counts of timestamps written with 'T' and with a
// space before the time (schema.ColumnProfile.Spellings), counted with
// the casts.
const spelled planast.CastType = "spelled"

// separated is the SQL test that the ISO timestamp text x writes sep
// (quoted) before its time.
func separated(x, sep string) string {
	return fmt.Sprintf("substr(%[1]s, 5, 1) = '-' AND substr(%[1]s, 8, 1) = '-' AND substr(%[1]s, 14, 1) = ':' AND substr(%[1]s, 11, 1) = %[2]s", x, sep)
}

// CountCastNulls fills the CastNulls of t's text columns whose samples
// mostly hold dates or numbers (castTargets), in one statement over every
// row of table tbl (quoted) in dialect d; the columns' profiles must be
// set. For a column of timestamps it also sets OffsetDays and Spellings,
// and with the second its Min and Max ordered as read with a space for
// the 'T', each as stored.
// asText, when set, turns a column into text first (a PostgreSQL enum or
// citext has no regular-expression match of its own). textOrder
// follows a text expression so min compares byte-wise (as
// SQLProfiler.TextOrder). query runs the statement and returns its one
// row with each value in the result encoding. Nothing runs when no column
// needs counting.
func CountCastNulls(ctx context.Context, d render.Dialect, tbl string, t *schema.Table, asText func(string) string, textOrder string, query func(ctx context.Context, q string) ([]any, error)) error {
	type counted struct {
		col int
		to  planast.CastType
	}
	var inner, items []string
	var want []counted
	for i := range t.Columns {
		c := &t.Columns[i]
		for _, to := range castTargets(c, c.Profile) {
			col := QuoteIdent(c.Name)
			if asText != nil {
				col = asText(col)
			}
			// the value where the cast reads it as NULL, tested once per
			// row in a subquery the engine keeps (OFFSET), then counted
			// and its least taken: testing it in each took twice as long
			b := fmt.Sprintf("b%d", len(want))
			bad := b
			if to == planast.CastTimestamp && len(want) > 0 && want[len(want)-1] == (counted{i, planast.CastDate}) {
				// what is no date is no timestamp, and a date of ten
				// characters is one: only the longer dates are tested again
				inner = append(inner, fmt.Sprintf("CASE WHEN length(%[1]s) > 10 AND NOT %[2]s THEN %[1]s END AS %[3]s", col, render.CastValid(d, col, to), b))
				bad = fmt.Sprintf("COALESCE(b%d, %s)", len(want)-1, b)
			} else {
				inner = append(inner, fmt.Sprintf("CASE WHEN %[1]s IS NOT NULL AND NOT %[2]s THEN %[1]s END AS %[3]s", col, render.CastValid(d, col, to), b))
			}
			// the example is the least value that is not blank: a blank
			// says nothing of why the rest fail ('$85.00', '1,050' do)
			items = append(items, fmt.Sprintf("count(%[1]s), coalesce(min(CASE WHEN trim(%[1]s) <> '' THEN %[1]s END%[2]s), min(%[1]s%[2]s))", bad, textOrder))
			if to == planast.CastDate {
				// a part over 12 is the day: compared as text, which reads
				// any value on every engine (a cast would fail PostgreSQL's
				// query on 'n/a')
				// each shape of date with its parts in either order, its
				// separators at the parts' ends, alike, and a time after
				// the year or nothing
				shape := func(sh schema.DateShape, seps string) string {
					at, end := sh.First+1, sh.First+sh.Second+2
					return fmt.Sprintf("substr(%[1]s, %[2]d, 1) IN (%[4]s) AND substr(%[1]s, %[3]d, 1) = substr(%[1]s, %[2]d, 1) AND (length(%[1]s) = %[5]d OR substr(%[1]s, %[6]d, 1) IN (' ', 'T'))",
						bad, at, end, seps, end+4, end+5)
				}
				anySep := func(sh schema.DateShape) string { return shape(sh, "'/', '.', '-'") }
				// a part of two digits over 12 is the day: compared as
				// text, which reads any value on every engine (a cast would
				// fail PostgreSQL's query on 'n/a'); by separator, as one
				// column may write each its own way
				for _, sep := range dateSeps {
					var first, second []string
					for _, sh := range schema.DateShapes {
						if sh.First == 2 {
							first = append(first, fmt.Sprintf("(%s AND substr(%s, 1, 2) BETWEEN '13' AND '31')", shape(sh, "'"+sep+"'"), bad))
						}
						if sh.Second == 2 {
							second = append(second, fmt.Sprintf("(%s AND substr(%s, %d, 2) BETWEEN '13' AND '31')", shape(sh, "'"+sep+"'"), bad, sh.First+2))
						}
					}
					items = append(items, "count(CASE WHEN "+strings.Join(first, " OR ")+" THEN 1 END)", "count(CASE WHEN "+strings.Join(second, " OR ")+" THEN 1 END)")
				}
				// the shapes a plan reorders into ISO (engine/warnings'
				// date fix), each counted, and the least of each kind
				// with a time after the date or not ('27.02.2025 08:15')
				var shapes []string
				for _, sh := range schema.DateShapes {
					items = append(items, fmt.Sprintf("count(CASE WHEN %s THEN 1 END)", anySep(sh)))
					shapes = append(shapes, "("+anySep(sh)+")")
				}
				shapes = append(shapes, fmt.Sprintf("((length(%[1]s) = 10 OR substr(%[1]s, 11, 1) IN (' ', 'T')) AND substr(%[1]s, 5, 1) IN ('/', '.') AND substr(%[1]s, 8, 1) = substr(%[1]s, 5, 1))", bad))
				shaped := strings.Join(shapes, " OR ")
				items = append(items, fmt.Sprintf("count(CASE WHEN %[1]s THEN 1 END), min(CASE WHEN %[1]s THEN %[2]s END%[3]s), min(CASE WHEN NOT (%[1]s) AND trim(%[2]s) <> '' THEN %[2]s END%[3]s)", shaped, bad, textOrder))
			}
			want = append(want, counted{i, to})
		}
		if len(want) > 0 && want[len(want)-1] == (counted{i, planast.CastTimestamp}) {
			// a timestamp with a UTC offset whose written day is not
			// its day in UTC: the cast to date reads the one, the cast
			// to timestamp the other (the offset tested first, so the
			// long casts run on those values only)
			col := QuoteIdent(c.Name)
			if asText != nil {
				col = asText(col)
			}
			ts := render.CastText(d, col, planast.CastTimestamp)
			b := fmt.Sprintf("b%d", len(want))
			inner = append(inner, fmt.Sprintf("CASE WHEN substr(%[1]s, length(%[1]s) - 5, 1) IN ('+', '-') AND %[2]s IS NOT NULL AND %[3]s <> %[4]s THEN %[1]s END AS %[5]s",
				col, ts, d.Cast(ts, planast.CastDate), render.CastText(d, col, planast.CastDate), b))
			items = append(items, fmt.Sprintf("count(%[1]s), min(%[1]s%[2]s)", b, textOrder))
			want = append(want, counted{i, offsetDay})
			// the timestamps written with 'T' and with a space, each
			// counted with its least, and the range ordered as read with
			// a space: text orders 'T' after ' ', so the range over the
			// text put '2024-12-31T09:56:45Z' after '2024-12-31 10:53:32'.
			// Each end is the value as stored, the one a filter on it
			// finds: when a value written with 'T' is the end, that value
			// (among those with 'T' the order of the text is the order
			// read with a space), else the end read with a space, which
			// is then stored so. The text read with a space alone is no
			// stored value ('2024-01-03 01:34:09Z').
			s := fmt.Sprintf("b%d", len(want))
			inner = append(inner, fmt.Sprintf("%s AS %s", col, s))
			t, sp := separated(s, "'T'"), separated(s, "' '")
			spaced := fmt.Sprintf("CASE WHEN %[1]s THEN substr(%[2]s, 1, 10) || ' ' || substr(%[2]s, 12) ELSE %[2]s END", t, s)
			end := func(agg string) string {
				return fmt.Sprintf("CASE WHEN %[1]s(%[2]s%[3]s) = %[1]s(CASE WHEN %[4]s THEN %[2]s END%[3]s) THEN %[1]s(CASE WHEN %[4]s THEN %[5]s END%[3]s) ELSE %[1]s(%[2]s%[3]s) END",
					agg, spaced, textOrder, t, s)
			}
			items = append(items, fmt.Sprintf("count(CASE WHEN %[1]s THEN 1 END), min(CASE WHEN %[1]s THEN %[2]s END%[4]s), count(CASE WHEN %[3]s THEN 1 END), min(CASE WHEN %[3]s THEN %[2]s END%[4]s), %[5]s, %[6]s",
				t, s, sp, textOrder, end("min"), end("max")))
			want = append(want, counted{i, spelled})
		}
	}
	if len(items) == 0 {
		return nil
	}
	keep := map[string]string{"sqlite": " LIMIT -1 OFFSET 0", "postgres": " OFFSET 0"}[d.Name()] // DuckDB computes each once
	row, err := query(ctx, "SELECT "+strings.Join(items, ", ")+" FROM (SELECT "+strings.Join(inner, ",\n\t")+"\nFROM "+tbl+keep+") AS s")
	if err != nil {
		return fmt.Errorf("count the values casts read as NULL: %w", err)
	}
	at := 0 // each count's first value in row
	for _, w := range want {
		p := t.Columns[w.col].Profile
		n, _ := row[at].(int64)
		cn := schema.CastNulls{To: planast.Type(w.to), Invalid: n, InvalidExample: row[at+1]}
		at += 2
		if w.to == spelled {
			sp := schema.TimestampSpellings{T: n, TExample: cn.InvalidExample}
			sp.Space, _ = row[at].(int64)
			sp.SpaceExample = row[at+1]
			least, greatest := row[at+2], row[at+3]
			at += 4
			if sp.T > 0 && sp.Space > 0 {
				p.Spellings = &sp
				if p.Min != nil { // a range is kept of ISO text alone (Temporal)
					p.Min, p.Max = least, greatest
				}
			}
			continue
		}
		if w.to == planast.CastDate {
			for _, sep := range dateSeps {
				o := schema.DateOrder{Sep: sep}
				o.DayFirst, _ = row[at].(int64)
				o.MonthFirst, _ = row[at+1].(int64)
				at += 2
				if o.DayFirst+o.MonthFirst > 0 {
					cn.Orders = append(cn.Orders, o)
					cn.DayFirst += o.DayFirst
					cn.MonthFirst += o.MonthFirst
				}
			}
			for _, sh := range schema.DateShapes {
				if n, _ := row[at].(int64); n > 0 {
					cn.Shapes = append(cn.Shapes, sh.Name)
				}
				at++
			}
			cn.Reorderable, _ = row[at].(int64)
			if cn.Reorderable > 0 { // else every value is of another form: InvalidExample
				cn.ReorderableExample, cn.OtherExample = row[at+1], row[at+2]
			}
			at += 3
		}
		if n > 0 && w.to == offsetDay {
			p.OffsetDays = &schema.OffsetDays{Count: n, Example: cn.InvalidExample}
		} else if n > 0 {
			p.CastNulls = append(p.CastNulls, cn)
		}
	}
	return nil
}
