package warnings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The profile counts a table's copies (and the repeats of an id) in the
// whole table, and the copies of an export written twice sit together: a
// day's rows, a status the first import wrote. A plan whose where keeps
// other days, or another status, reads no copy, yet was told its sum
// counts copies, and a host that found the warning wrong there learnt to
// skip it where it is right. A plan whose where filters the table is
// probed: RepeatProbes counts the repeats among the rows its filters on
// that table keep, and RepeatProbe.Verdict drops the warning when there
// are none, else names the count found. Only the where's terms that read
// that table alone are applied (a join's or another table's filter keeps
// more rows, never fewer, so the probe may find a copy the plan does not
// read, and keeps the warning, but never drops one it does). Without a
// run (check_plan), or when the probe fails, is refused or runs out of
// time, the warning stays as the profile says it, and says the plan's
// where was not probed.

// repeatKind is what a repeatFinding says repeats.
type repeatKind int

const (
	repeatSaid   repeatKind = iota // said as it is, never probed
	repeatCopies                   // rows equal in every column
	repeatOwnID                    // the table's own id column
	repeatRef                      // another nearly unique identifier
)

// repeatFinding is one warning of repeatedKeys: what repeats in table t
// (read as from), col for an id, extra the profile's count of repeats of
// a reference, and filter the terms of the plan's where that read t alone
// (nil: none, and the profile's count is of the rows the plan reads).
type repeatFinding struct {
	head   string // repeatSaid's text
	kind   repeatKind
	t      *schema.Table
	from   planast.From
	col    *schema.Column
	extra  int64
	filter planast.Expr
}

// notProbed ends the warning of a finding whose table the plan filters,
// as the profile words it.
const notProbed = "; the profile counted them in the whole table, not in the rows this plan's where keeps of it, which were not probed"

// text is the warning as the profile words it.
func (fd repeatFinding) text() string {
	w := fd.worded(-1)
	if fd.kind != repeatSaid && fd.filter != nil {
		w += notProbed
	}
	return w
}

// worded is the warning with found, the repeats a probe counted among the
// rows the plan's where keeps, named (none when found < 0).
func (fd repeatFinding) worded(found int64) string {
	kept := ""
	if found >= 0 {
		kept = fmt.Sprintf(", %d among the rows this plan's where keeps", found)
	}
	t := fd.t
	switch fd.kind {
	case repeatCopies:
		among := ""
		for _, c := range t.Columns {
			if c.Profile != nil && c.Profile.SampledRows > 0 {
				among = fmt.Sprintf(" among its first %d", c.Profile.SampledRows)
				break
			}
		}
		return fmt.Sprintf("table %q holds %d rows%s that repeat another row exactly (every column equal)%s: a COUNT, SUM or AVG over it counts each copy; if they were recorded twice, read the table through a subquery with \"distinct\": true and aggregate over that",
			t.Name, t.DuplicateRows, among, kept)
	case repeatOwnID:
		c := fd.col
		return fmt.Sprintf("table %q has %d rows but its column %q holds %d distinct values, so %d of its rows repeat a record's id (an export that wrote a record twice?)%s: a COUNT, SUM or AVG over its rows counts such a record more than once; COUNT(DISTINCT %s) counts records, and grouping by %s with HAVING COUNT(*) > 1 shows the repeated ones",
			t.Name, *t.RowCount, c.Name, c.Profile.DistinctCount, *t.RowCount-c.Profile.DistinctCount, kept, c.Name, c.Name)
	case repeatRef:
		c := fd.col
		return fmt.Sprintf("%s.%s is nearly unique, but %d rows repeat another row's value%s: copies from a retried import, or several rows of one thing (a reversal, a re-issue); a COUNT, SUM or AVG over %s takes each of them, and this plan never reads %s: see which they are (group by %s with HAVING COUNT(*) > 1) and, if they are copies, count one row per %s",
			t.Name, c.Name, fd.extra, kept, t.Name, c.Name, c.Name, c.Name)
	}
	return fd.head
}

// ownFilter is the and of q's where terms (its top-level and's operands)
// that read the source alias alone: each names a column of it, every
// column it names is qualified with alias, and it holds no subquery (one
// may name the outer query). Nil when there is none.
func ownFilter(q *planast.Query, alias string) planast.Expr {
	var terms []planast.Expr
	var split func(e planast.Expr)
	split = func(e planast.Expr) {
		if b, ok := e.(*planast.Binary); ok && b.Op == planast.OpAnd {
			split(b.Left)
			split(b.Right)
			return
		}
		terms = append(terms, e)
	}
	if q.Where != nil {
		split(q.Where)
	}
	var out planast.Expr
	for _, term := range terms {
		own, other := false, false
		planast.Inspect(term, func(n planast.Node) bool {
			switch x := n.(type) {
			case *planast.Query:
				other = true
				return false
			case *planast.Column:
				if x.Table == alias {
					own = true
				} else {
					other = true
				}
			}
			return true
		})
		if !own || other {
			continue
		}
		term, err := copyExpr(term)
		if err != nil {
			return nil
		}
		if out == nil {
			out = term
		} else {
			out = &planast.Binary{Op: planast.OpAnd, Left: out, Right: term}
		}
	}
	return out
}

// MaxRepeatProbes bounds the repeat warnings of one plan probed: each
// probe reads the rows a table's filters keep once more.
const MaxRepeatProbes = 3

// RepeatProbes are the probes of plan's warnings of copies and repeated
// ids whose table its where filters, the first MaxRepeatProbes; none
// when there is none. Each Query counts the rows the plan's where keeps
// of the table and the distinct ones among them.
func RepeatProbes(snap *schema.Snapshot, plan *planast.Query) []Reword {
	var out []Reword
	for _, fd := range repeatFindings(snap, plan, readColumns(plan)) {
		if len(out) == MaxRepeatProbes {
			break
		}
		if fd.kind == repeatSaid || fd.filter == nil {
			continue
		}
		if p := repeatProbe(fd); p != nil {
			out = append(out, Reword{Warning: fd.text(), Query: p, Verdict: fd.verdict})
		}
	}
	return out
}

// repeatProbe is the plan that counts the rows fd.filter keeps of fd's
// table and how many of them are distinct: in every column (copies,
// grouped by all of them, which takes NULL for equal to NULL as the
// profile's count does), or in fd.col (NULLs not counted).
func repeatProbe(fd repeatFinding) *planast.Query {
	alias := fd.from.Alias
	src := []planast.From{{Schema: fd.from.Schema, Table: fd.from.Table, Alias: alias}}
	col := func(name string) *planast.Column { return &planast.Column{Table: alias, Column: name} }
	if fd.kind != repeatCopies {
		return &planast.Query{
			Select: []planast.SelectItem{
				{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{col(fd.col.Name)}}, Alias: "rows_kept"},
				{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{col(fd.col.Name)}, Distinct: true}, Alias: "distinct_kept"},
			},
			From:  src,
			Where: fd.filter,
		}
	}
	inner := &planast.Query{
		Select: []planast.SelectItem{{Expr: &planast.Func{Name: "COUNT"}, Alias: "n"}},
		From:   src,
		Where:  fd.filter,
	}
	for _, c := range fd.t.Columns {
		inner.GroupBy = append(inner.GroupBy, col(c.Name))
	}
	return &planast.Query{
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "SUM", Args: []planast.Expr{&planast.Column{Table: "g", Column: "n"}}}, Alias: "rows_kept"},
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "distinct_kept"},
		},
		From: []planast.From{{Subquery: inner, Alias: "g"}},
	}
}

// verdict reads the probe's row (rows kept, distinct among them): keep is
// false when no row kept repeats another (or none is kept); else w is the
// warning with the count found. A row it cannot read keeps the warning as
// it was.
func (fd repeatFinding) verdict(row []any) (w string, keep bool) {
	if len(row) != 2 {
		return fd.text(), true
	}
	if row[0] == nil {
		return "", false // SUM of no group: no row kept
	}
	rows, ok1 := countValue(row[0])
	distinct, ok2 := countValue(row[1])
	if !ok1 || !ok2 {
		return fd.text(), true
	}
	if rows <= distinct {
		return "", false
	}
	return fd.worded(rows - distinct), true
}

// countValue reads a count or a sum of counts as each engine's driver
// gives it (PostgreSQL's SUM of a bigint is a numeric, which may come as
// text).
func countValue(v any) (int64, bool) {
	switch x := v.(type) {
	case string:
		n, err := strconv.ParseInt(strings.TrimSuffix(x, ".0"), 10, 64)
		return n, err == nil
	case []byte:
		return countValue(string(x))
	}
	return schema.Whole(v)
}
