package warnings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// epochUnits are the warnings on FROM_EPOCH_SECONDS of a column read in
// the wrong unit. A column whose greatest profiled value reads as Unix
// milliseconds or microseconds (planast.UnixTime) is past year 9999 as
// seconds: exports write Unix times in milliseconds (13 digits) or
// microseconds (16), which the function reads as NULL, every one of
// them, without a sign in the rows. The other way round, a column of
// Unix seconds divided by 1000 (or of milliseconds by 1000000) puts
// every date in January 1970, and a column of numbers that are no Unix
// time at all (an id of 1 to 10) puts every value in 1970: rows that
// look like dates and are none. The warning names the unit the column
// holds and the expression that reads it.
func epochUnits(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[string]bool{}
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || f.Name != "FROM_EPOCH_SECONDS" || len(f.Args) != 1 {
				return
			}
			ref, div, ok := dividedColumn(f.Args[0])
			if !ok {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || c.Profile == nil || !c.Type.IsNumeric() {
				return
			}
			w := epochUnit(c, div)
			if w != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		})
	})
	return out
}

// epochUnit is epochUnits' warning on FROM_EPOCH_SECONDS of number
// column c divided by div (1: not divided), "" when c's profile reads as
// Unix times in the unit div reads or says nothing either way.
func epochUnit(c *schema.Column, div float64) string {
	p := c.Profile
	read := c.Name
	if div != 1 {
		read += " / " + strconv.FormatFloat(div, 'f', -1, 64)
	}
	if div == 1 {
		if _, unit, per, ok := planast.UnixTime(p.Max); ok && unit != "seconds" {
			return fmt.Sprintf("FROM_EPOCH_SECONDS(%s) reads a number past year 9999 as NULL, and %q holds such numbers (up to %s): if they are %s since 1970, read them as FROM_EPOCH_SECONDS(%s%s)",
				c.Name, c.Name, example(p.Max, c.Type), unit, c.Name, per)
		}
	}
	lo, ok1 := profileNumber(p.Min)
	hi, ok2 := profileNumber(p.Max)
	if !ok1 || !ok2 {
		return ""
	}
	lo, hi = lo/div, hi/div
	if from, to, unit, per, ok := planast.UnixSpan(p.Min, p.Max); ok && div != 1 {
		if per == " / "+strconv.FormatFloat(div, 'f', -1, 64) {
			return ""
		}
		got := "it reads them as " + epochDays(lo, hi)
		if lo >= planast.EpochEnd {
			got = "every value is past year 9999, so NULL"
		}
		return fmt.Sprintf("FROM_EPOCH_SECONDS(%s) reads %q in the wrong unit: it holds Unix %s (%s to %s), so %s; read them as FROM_EPOCH_SECONDS(%s%s)",
			read, c.Name, unit, from.Format("2006-01-02"), to.Format("2006-01-02"), got, c.Name, per)
	}
	// no Unix time in any unit: values that all fall in 1970 are counts,
	// ids or amounts, never times; a column of real times before 1973
	// (birth dates) spans years, so it is not said of it
	if lo >= 0 && hi < 365*24*3600 {
		return fmt.Sprintf("FROM_EPOCH_SECONDS(%s) puts every value in 1970 (%s): %q holds %s to %s, which is no Unix time (seconds since 1970 of 1973 to 2099, or their milliseconds or microseconds), so these are no dates",
			read, epochDays(lo, hi), c.Name, example(p.Min, c.Type), example(p.Max, c.Type))
	}
	return ""
}

// epochDays is the span of seconds lo..hi since 1970 as FROM_EPOCH_SECONDS
// reads it: one day, or the first and last.
func epochDays(lo, hi float64) string {
	at := func(s float64) string { return time.Unix(int64(math.Floor(s)), 0).UTC().Format("2006-01-02 15:04:05") }
	if at(lo)[:10] == at(hi)[:10] {
		return at(lo) + " to " + at(hi)[11:]
	}
	return at(lo) + " to " + at(hi)
}

// dividedColumn is FROM_EPOCH_SECONDS's argument e as a column and the
// positive number literal it is divided by (1 when it is the column
// itself); ok is false for any other expression.
func dividedColumn(e planast.Expr) (*planast.Column, float64, bool) {
	if ref, ok := e.(*planast.Column); ok {
		return ref, 1, true
	}
	b, ok := e.(*planast.Binary)
	if !ok || b.Op != planast.OpDiv {
		return nil, 0, false
	}
	ref, ok := b.Left.(*planast.Column)
	lit, isLit := b.Right.(*planast.Literal)
	if !ok || !isLit {
		return nil, 0, false
	}
	var d float64
	switch lit.Type {
	case planast.TInteger:
		d = float64(lit.Int)
	case planast.TDecimal:
		d, _ = strconv.ParseFloat(lit.Text, 64)
	}
	if d <= 0 {
		return nil, 0, false
	}
	return ref, d, true
}

// profileNumber is a profiled value (an int64, float64, json.Number or
// its text) as a number.
func profileNumber(v any) (float64, bool) {
	if v == nil {
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(fmt.Sprint(v)), 64)
	return x, err == nil
}

// unixTextFilters explain a filter that compares the text of a date or
// timestamp column (CAST(happened_at AS text) LIKE '2024-04%', =, <,
// BETWEEN, IN) with text while the column also stores Unix times as
// numbers (SQLite: a loader wrote time() beside ISO text): their text is
// digits, which the comparison keeps or drops by their characters, never
// by their date, so April's events leave out one stored as 1711929600.
// The warning says how many there are and the dates they span, and gives
// as plan JSON the reading that counts them (planast.UnixReading); when nothing
// matched, it is said as the likely cause.
func unixTextFilters(snap *schema.Snapshot, plan *planast.Query, empty bool) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		check := func(x planast.Expr, lits ...planast.Expr) {
			cast, ok := x.(*planast.Cast)
			if !ok || cast.Type != planast.CastText {
				return
			}
			ref, ok := cast.Expr.(*planast.Column)
			if !ok || len(lits) == 0 {
				return
			}
			for _, l := range lits {
				if lit, ok := l.(*planast.Literal); !ok || lit.Type != planast.TString {
					return
				}
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || !c.Type.IsTemporal() || seen[c] {
				return
			}
			n, from, to, unit, per, ok := c.Profile.UnixTimes()
			if !ok {
				return
			}
			reading, err := planast.JSON(planast.UnixReading(&planast.Column{Table: ref.Table, Column: ref.Column}, c.Type, "", per))
			if err != nil {
				return
			}
			seen[c] = true
			what := fmt.Sprintf("%d Unix times", n)
			if n == 1 {
				what = "1 Unix time"
			}
			w := fmt.Sprintf("%s.%s is compared as text with %s, and %q also stores %s in %s as numbers (such as %s; %s to %s read as dates), whose digits that comparison keeps or drops by their characters, never by their date; to count them, read the column as %s and compare it with a date literal",
				ref.Table, ref.Column, example(lits[0].(*planast.Literal).Text, planast.TypeText), c.Name, what, unit,
				example(c.Profile.Numbers.Min, planast.TypeText), from.Format("2006-01-02"), to.Format("2006-01-02"), reading)
			if empty {
				w = "no rows matched, and that may be why: " + w
			}
			out = append(out, w)
		}
		inspectQuery(q, func(e planast.Expr) {
			switch x := e.(type) {
			case *planast.Binary:
				switch x.Op {
				case planast.OpEq, planast.OpNe, planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
					if _, ok := x.Right.(*planast.Literal); ok {
						check(x.Left, x.Right)
					} else {
						check(x.Right, x.Left)
					}
				}
			case *planast.Between:
				check(x.Expr, x.Low, x.High)
			case *planast.Like:
				if lit, ok := x.Pattern.(*planast.Literal); ok && !hasDigit(lit.Text) {
					// a test of the text's shape ('__/__/____%', as the
					// reading of dates written otherwise tests it) means
					// no date its digits miss
					break
				}
				check(x.Expr, x.Pattern)
			case *planast.In:
				if x.Subquery == nil {
					check(x.Expr, x.List...)
				}
			}
		})
	})
	return out
}

// epochArg reports whether cast x is FROM_EPOCH_SECONDS's argument in q:
// the validator casts a text argument to a number, so that the plan
// wrote no cast its warning could name.
func epochArg(q *planast.Query, x *planast.Cast) bool {
	found := false
	inspectQuery(q, func(e planast.Expr) {
		if f, ok := e.(*planast.Func); ok && f.Name == "FROM_EPOCH_SECONDS" && len(f.Args) == 1 && f.Args[0] == planast.Expr(x) {
			found = true
		}
	})
	return found
}

// uncountedNumbers says which values of text column c of table t a cast
// to a number (to) reads as NULL when profiling counted none for it
// (schema.ColumnProfile.CastNulls: only a column with a sampled value
// that holds a number is counted, so a column of titles read by
// FROM_EPOCH_SECONDS said nothing while every row came back NULL): every
// value, when the samples are all its values and none holds a number;
// those sampled, when none of the most frequent does; "" otherwise.
func uncountedNumbers(t *schema.Table, c *schema.Column, to planast.CastType) string {
	p := c.Profile
	if to != planast.CastFloat && to != planast.CastInteger && to != planast.CastDecimal || p == nil || len(p.SampleValues) == 0 {
		return ""
	}
	if _, counted := p.CastNull(to); counted {
		return ""
	}
	for _, v := range p.SampleValues {
		if s, ok := v.(string); !ok || planast.TextHolds(s, planast.CastFloat) {
			return ""
		}
	}
	if p.AllValues && t != nil && t.RowCount != nil {
		n := int64(math.Round(float64(*t.RowCount) * (1 - p.NullFraction)))
		return notOf(n, p.SampleValues[0], planast.TypeFloat, planast.TypeText) + ", which is every value it holds"
	}
	return fmt.Sprintf("values that are not numbers (such as %s; none of its %d most frequent values is one)",
		example(p.SampleValues[0], planast.TypeText), len(p.SampleValues))
}
