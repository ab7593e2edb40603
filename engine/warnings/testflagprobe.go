package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A warning that a flag of test records is never read says the test rows
// count, not how many of the rows the plan reads they are: a plan over
// invoices joined to owners was told owners.is_test is unread, and the
// host, whose question said nothing of test accounts, could not tell
// whether that mattered without a breakdown of its own (the test
// accounts held a large share at one clinic and none at the others). A
// run probes the rows the plan reads (its sources, joins and where, with
// the foreign keys to the flag's table joined when the flag is on a table
// the rows belong to): how many of them the warning's filter leaves out,
// in how many of its groups, and what share of the plan's first SUM they
// hold; the warning says so, or, when none is marked, that the filter
// would not change this result. Without a run (check_plan), or when the
// probe fails, is refused or runs out of time, the warning stays as the
// profile words it.

// MaxTestFlagProbes bounds the test-record warnings of one plan probed:
// each probe reads the plan's rows once more.
const MaxTestFlagProbes = 3

// flagEffect is what a probe found of the rows a plan reads: rows read,
// marked of them (those the warning's filter leaves out), groups of the
// query (0 when it does not group) and touched, those holding a marked
// row; and, of the query's first SUM (sum, as the plan writes it), total
// over the rows read and held by the marked ones, as the engine gave
// them (nil: no SUM, or NULL).
type flagEffect struct {
	rows, marked    int64
	groups, touched int64
	sum             string
	total, held     any
}

// said is what follows the count of marked rows in a warning: the groups
// holding them, and their share of the SUM.
func (eff *flagEffect) said() string {
	s := ""
	if eff.groups > 0 {
		groups := "groups"
		if eff.groups == 1 {
			groups = "group"
		}
		s = fmt.Sprintf(" (in %d of its %d %s)", eff.touched, eff.groups, groups)
	}
	if eff.sum == "" || eff.total == nil {
		return s
	}
	held := "none"
	if eff.held != nil {
		// exactly as the engine gave it, as the result table prints it
		held = cellfmt.Value(eff.held, "")
	}
	return s + fmt.Sprintf(", holding %s of the %s its %s adds", held, cellfmt.Value(eff.total, ""), eff.sum)
}

// TestFlagProbes are the probes of plan's warnings of a flag of test or
// internal records it never reads, read from a query that aggregates,
// the first MaxTestFlagProbes; none when there is none. Each Query
// counts, over the rows that query reads (grouped as it groups), those
// the warning's filter leaves out, and sums the query's first SUM over
// them; Verdict says what it found in the warning.
func TestFlagProbes(snap *schema.Snapshot, plan *planast.Query) []Reword {
	var out []Reword
	for _, fd := range testFindings(snap, plan, readColumns(plan)) {
		if len(out) == MaxTestFlagProbes {
			break
		}
		if fd.q == nil || fd.keep == nil || !aggregatingQuery(fd.q) {
			continue
		}
		probe, sum := testFlagProbe(snap, plan, fd)
		if probe == nil {
			continue
		}
		out = append(out, Reword{Warning: fd.text, Query: probe, Verdict: func(row []any) (string, bool) {
			return fd.verdict(row, sum, len(fd.q.GroupBy) > 0), true
		}})
	}
	return out
}

// testFlagProbe is the plan that reads, per group of fd.q (its sources,
// joins, where and group_by, with left joins along fd.hops added, so that
// no row it reads is lost), the rows, those fd.keep leaves out (keep is
// false: a NULL the filter could not decide is no mark) and the first SUM
// of its select over each; then the sums of those over the groups, the
// groups and those holding a marked row. sum is the SUM as the plan
// writes it, "" when there is none. Nil when q is a subquery with CTEs of
// its own, or has set operations (their rows are others' too).
func testFlagProbe(snap *schema.Snapshot, plan *planast.Query, fd testFinding) (probe *planast.Query, sum string) {
	q := fd.q
	if q != plan && len(q.With) > 0 || len(q.SetOps) > 0 {
		return nil, ""
	}
	outer, err := copyQuery(plan)
	if err != nil {
		return nil, ""
	}
	inner, err := copyQuery(q)
	if err != nil {
		return nil, ""
	}
	for i, g := range inner.GroupBy {
		inner.GroupBy[i] = groupedExpr(inner, g)
		if l, ok := g.(*planast.Literal); ok && l.Type == planast.TInteger && l.Int >= 1 && int(l.Int) <= len(inner.Select) {
			inner.GroupBy[i] = inner.Select[l.Int-1].Expr // group by position
		}
	}
	var summed planast.Expr
	for i, it := range q.Select {
		if f, ok := it.Expr.(*planast.Func); ok && strings.EqualFold(f.Name, "SUM") && !f.Distinct && len(f.Args) == 1 {
			summed, sum = inner.Select[i].Expr.(*planast.Func).Args[0], exprText(f)
			break
		}
	}
	used := usedAliases(plan)
	left := fd.alias
	for _, h := range fd.hops {
		p, ok := snap.Lookup(h.fk.RefSchema, h.fk.RefTable)
		if !ok {
			return nil, ""
		}
		alias := freshAlias(p.Name, used)
		var on []planast.OnPair
		for k, c := range h.fk.Columns {
			on = append(on, planast.OnPair{LeftColumn: c, RightColumn: h.fk.RefColumns[k]})
		}
		schemaName := ""
		if p.Schema != snap.Default() {
			schemaName = p.Schema
		}
		inner.From = append(inner.From, planast.From{Schema: schemaName, Table: p.Name, Alias: alias})
		inner.Joins = append(inner.Joins, planast.Join{Type: planast.JoinLeft, Left: left, Right: alias, On: on})
		left = alias
	}
	// each use its own copy: validation annotates the nodes it reads
	marked := func(then planast.Expr) planast.Expr {
		keep, err := planast.DecodeExpr([]byte(fd.keep(left)), planast.DefaultLimits)
		if err != nil {
			return nil
		}
		return &planast.Case{Whens: []planast.When{{When: &planast.Unary{Op: "not", Expr: keep}, Then: then}}}
	}
	countMarked := marked(intLit(1))
	if countMarked == nil {
		return nil, ""
	}
	inner.Select = []planast.SelectItem{
		{Expr: &planast.Func{Name: "COUNT"}, Alias: "rows_read"},
		{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{countMarked}}, Alias: "rows_marked"},
	}
	g := func(name string) planast.Expr { return &planast.Column{Table: "g", Column: name} }
	sumOf := func(e planast.Expr, alias string) planast.SelectItem {
		return planast.SelectItem{Expr: &planast.Func{Name: "SUM", Args: []planast.Expr{e}}, Alias: alias}
	}
	probe = &planast.Query{
		With: outer.With,
		Select: []planast.SelectItem{
			sumOf(g("rows_read"), "rows_read"),
			sumOf(g("rows_marked"), "rows_marked"),
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "groups"},
			{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{&planast.Case{Whens: []planast.When{{
				When: &planast.Binary{Op: planast.OpGt, Left: g("rows_marked"), Right: intLit(0)},
				Then: intLit(1)}}}}}, Alias: "groups_marked"},
		},
		From: []planast.From{{Subquery: inner, Alias: "g"}},
	}
	if summed != nil {
		again, err := copyExpr(summed)
		heldBy := marked(again)
		if err != nil || heldBy == nil {
			return nil, ""
		}
		inner.Select = append(inner.Select, sumOf(summed, "sum_read"), sumOf(heldBy, "sum_marked"))
		probe.Select = append(probe.Select, sumOf(g("sum_read"), "sum_read"), sumOf(g("sum_marked"), "sum_marked"))
	}
	inner.With, inner.Having, inner.Qualify, inner.SetOps, inner.OrderBy = nil, nil, nil, nil, nil
	inner.Limit, inner.Offset, inner.WithTies, inner.Distinct = nil, nil, false, false
	return probe, sum
}

// verdict reads the probe's row (rows read, marked, groups, groups
// marked, and with a SUM its total and the marked rows' share): the
// warning with what it found said. A row it cannot read, or one of no
// rows read, keeps the warning as it was.
func (fd testFinding) verdict(row []any, sum string, grouped bool) string {
	if len(row) != 4 && len(row) != 6 {
		return fd.text
	}
	rows, ok1 := countValue(row[0])
	marked, ok2 := countValue(row[1])
	groups, ok3 := countValue(row[2])
	touched, ok4 := countValue(row[3])
	if !ok1 || !ok2 || !ok3 || !ok4 || rows == 0 {
		return fd.text // SUM over no group is NULL: nothing read
	}
	eff := &flagEffect{rows: rows, marked: marked, touched: touched}
	if grouped {
		eff.groups = groups
	}
	if len(row) == 6 {
		eff.sum, eff.total, eff.held = sum, row[4], row[5]
	}
	return fd.worded(eff)
}

// andJSON is the plan JSON of the and of filters (plan JSON each).
func andJSON(filters []string) string {
	out := filters[0]
	for _, f := range filters[1:] {
		out = fmt.Sprintf(`{"kind": "binary", "op": "and", "left": %s, "right": %s}`, out, f)
	}
	return out
}
