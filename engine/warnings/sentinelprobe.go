package warnings

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A rating of 1 to 5 that stores 0 for "no response" (or -1, 99, 999 for
// unknown) often says so nowhere: no comment, a name like any other. AVG
// reads the zeros as ratings and a branch's 4.1 comes back 3.0, MIN says
// 0, and the figure looks like an answer. The profile shows such a column
// by its few distinct values (4 to maxScaleWidth+2) from a least of 0 or
// below, or to a greatest written in nines (99, 999) far above the rest;
// it keeps neither every value nor their counts, nor can it say whether
// the plan's where keeps those rows, so a run probes the rows the
// aggregate reads (SentinelProbes). The value is named, with its count
// and the filter that leaves it out, when the other values there form a
// small scale (at least 3 of them, no more than maxScaleWidth apart,
// two thirds of its steps present) that the value stands apart from:
// below it with a sign the scale never has (-1 beside 0 to 4), farther
// from it than the scale is wide (99 beside 1 to 10), or a 0 just below a
// scale from 1 that is a spike, sentinelSpike times as frequent as the 1
// (a scale of 0 to 5 whose 0 is as common as its neighbours is a scale,
// and says nothing); and when it is frequent there (at least 1 in
// sentinelShare of the values read, two at least). An aggregate the value
// cannot move is not probed: a SUM of zeros, the MAX of a value below the
// scale, the MIN of one above.

const (
	// sentinelShare: a value apart from the scale is named when at
	// least 1 in this many of the values read hold it.
	sentinelShare = 20
	// sentinelSpike is how many times as frequent as the scale's 1 a 0
	// below it must be to stand apart.
	sentinelSpike = 3
	// maxScaleWidth bounds what counts as a small scale: 1 to 5, 1 to
	// 10, 0 to 10.
	maxScaleWidth = 10
)

// scaleCandidate is the value of a number column that may stand apart
// from a small scale of its other values, as its profile shows it (see
// above): its least, when 0 or below, else its greatest, when written in
// nines and farther above the least than a scale is wide. ok is false
// when there is none, or the column's comment names its own.
func scaleCandidate(c *schema.Column) (value int64, ok bool) {
	p := c.Profile
	if p == nil || p.DistinctCount < 4 || p.DistinctCount > maxScaleWidth+2 {
		return 0, false
	}
	if v, _ := sentinel(c); v != "" {
		return 0, false // the comment's warning says it
	}
	lo, ok1 := wholeValue(p.Min)
	hi, ok2 := wholeValue(p.Max)
	switch {
	case !ok1 || !ok2:
		return 0, false
	case lo <= 0 && hi > 0:
		return lo, true
	case hi-lo > maxScaleWidth && strings.Trim(strconv.FormatInt(hi, 10), "9") == "":
		return hi, true
	}
	return 0, false
}

// wholeValue reads a profile's least or greatest value as a whole number.
func wholeValue(v any) (int64, bool) {
	if v == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return 0, false
	}
	return int64(f), true
}

// MaxSentinelProbes bounds the values apart from a scale probed in one
// plan: each probe reads the aggregate's rows once more.
const MaxSentinelProbes = 3

// SentinelProbe is the probe of one aggregate over a column that may hold
// a value apart from a scale: Query counts, over the rows the aggregate
// reads, the column's values, those equal to the value and to the whole
// number next to it toward the scale, and the least, greatest and
// distinct count of the others (validate and run it as the caller, like
// any other); Warning reads its one row.
type SentinelProbe struct {
	Query *planast.Query
	f     *planast.Func
	ref   *planast.Column
	value int64
}

// SentinelProbes are the probes of plan's aggregates over a column whose
// profile may hold a value apart from a small scale, the first
// MaxSentinelProbes; none when there is none.
func SentinelProbes(snap *schema.Snapshot, plan *planast.Query) []SentinelProbe {
	var out []SentinelProbe
	sentinelUses(snap, plan, func(q *planast.Query, f *planast.Func, ref *planast.Column, c *schema.Column) {
		if len(out) == MaxSentinelProbes {
			return
		}
		s, ok := scaleCandidate(c)
		if !ok || !moves(strings.ToUpper(f.Name), s) {
			return
		}
		if slices.ContainsFunc(out, func(p SentinelProbe) bool {
			return strings.EqualFold(p.f.Name, f.Name) && p.ref.Table == ref.Table && p.ref.Column == ref.Column
		}) {
			return
		}
		if probe := sentinelProbe(plan, q, ref, s); probe != nil {
			out = append(out, SentinelProbe{Query: probe, f: f, ref: ref, value: s})
		}
	})
	return out
}

// moves reports whether aggregate fn's figure changes with rows holding
// s, a value below the scale when 0 or less, else above it: a SUM of
// zeros adds nothing, the MAX of values below the scale and the MIN of
// those above take none of them.
func moves(fn string, s int64) bool {
	switch fn {
	case "SUM":
		return s != 0
	case "MAX":
		return s > 0
	case "MIN":
		return s <= 0
	}
	return true
}

// sentinelProbe is the plan that counts over q's sources, joins and where
// (q's grouping dropped: every group's rows together) what Warning reads.
// Nil when q is a subquery with CTEs of its own.
func sentinelProbe(plan, q *planast.Query, ref *planast.Column, s int64) *planast.Query {
	if q != plan && len(q.With) > 0 {
		return nil
	}
	probe, err := copyQuery(q)
	if err != nil {
		return nil
	}
	if q != plan {
		outer, err := copyQuery(plan)
		if err != nil {
			return nil
		}
		probe.With = outer.With
	}
	col := func() planast.Expr { return &planast.Column{Table: ref.Table, Column: ref.Column} }
	countOf := func(v int64) planast.Expr {
		return &planast.Func{Name: "COUNT", Args: []planast.Expr{&planast.Case{Whens: []planast.When{{
			When: &planast.Binary{Op: planast.OpEq, Left: col(), Right: intLit(v)},
			Then: intLit(1)}}}}}
	}
	others := func() planast.Expr { return &planast.Func{Name: "NULLIF", Args: []planast.Expr{col(), intLit(s)}} }
	next := s + 1
	if s > 0 {
		next = s - 1
	}
	probe.Select = []planast.SelectItem{
		{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{col()}}, Alias: "values_read"},
		{Expr: countOf(s), Alias: "at_value"},
		{Expr: countOf(next), Alias: "at_next"},
		{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{others()}}, Alias: "scale_from"},
		{Expr: &planast.Func{Name: "MAX", Args: []planast.Expr{others()}}, Alias: "scale_to"},
		{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{others()}, Distinct: true}, Alias: "scale_values"},
	}
	probe.GroupBy, probe.Having, probe.Qualify, probe.SetOps, probe.OrderBy = nil, nil, nil, nil, nil
	probe.Limit, probe.Offset, probe.WithTies, probe.Distinct = nil, nil, false, false
	return probe
}

// Warning reads the probe's row (values read, at the value, at the number
// next to it, the others' least, greatest and distinct count): the
// warning when the others form a small scale the value stands apart from
// and the value is frequent among the values read, else "".
func (p SentinelProbe) Warning(row []any) string {
	if len(row) != 6 {
		return ""
	}
	var n [6]int64
	for i, v := range row {
		var ok bool
		if n[i], ok = countValue(v); !ok {
			return "" // NULL: no other value read
		}
	}
	read, at, next, lo, hi, distinct := n[0], n[1], n[2], n[3], n[4], n[5]
	s, width := p.value, hi-lo
	if at < 2 || at*sentinelShare < read || distinct < 3 || width > maxScaleWidth || 3*distinct < 2*(width+1) {
		return ""
	}
	spike := ""
	switch {
	case s < 0 && lo >= 0, s <= 0 && lo-s > width, s > 0 && s-hi > width:
	case s == 0 && lo == 1 && at >= sentinelSpike*next:
		rows := "rows"
		if next == 1 {
			rows = "row"
		}
		spike = fmt.Sprintf(", against %d %s of 1", next, rows)
	default:
		return "" // a step of the scale
	}
	v := strconv.FormatInt(s, 10)
	why := fmt.Sprintf("%d of the %d values it reads are %s%s, apart from the %d to %d the column's other values run: likely a code for no value (no response, unknown), not a value of the scale",
		at, read, v, spike, lo, hi)
	return sentinelText(p.f, p.ref, v, why)
}
