package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The profile counts the currencies of a whole column, and keptValues
// the ones a filter on that column leaves; a where on another column
// (s.country_code = 'GB', each country one currency), a join, or a
// grouping that keeps one currency per group (by practitioner, each at
// one site) keeps one all the same, which no reading of the plan can
// tell: a correct per-country sum was told it was in no currency, which
// teaches a host to skip the warning where it is right. A plan that
// filters, joins or groups is probed: CurrencyProbes counts the distinct
// currencies the summed rows hold, per group, and CurrencyProbe.Verdict
// keeps the warning only when some group (or the whole) holds more than
// one, naming the count. Without a run (check_plan), or when the probe
// fails or is refused, the warning stays as the profile says, and says
// the plan's filters were not probed. A view's currencies, read off its
// definition, have no column a probe could count, and are not probed.

// currencyFinding is one warning of mixedCurrencies: head, the count of
// what (currencies or units) with what the profile says of them (held:
// "currency" holds "EUR", "USD"), and tail; a view's warning is its head
// alone (q nil). A probe reads q's sources, joins, where and grouping, with
// froms and joins added (the foreign keys to a table that holds the
// currency, which q does not join), and counts cur's values.
type currencyFinding struct {
	head, tail, held, what string
	n                      int // what the profile counts
	// unprofiled: the column holds values no profile read (a view's on
	// PostgreSQL), so n is unknown and every run probes
	unprofiled bool

	q     *planast.Query
	froms []planast.From
	joins []planast.Join
	cur   *planast.Column
}

// text is the warning as the profile alone words it.
func (fd currencyFinding) text() string {
	if fd.q == nil {
		return fd.head
	}
	if fd.unprofiled {
		return fd.head + "several " + fd.what + " (" + fd.held + ", and only a run counts them in the rows summed)" + fd.tail
	}
	w := fd.head + fd.count() + fd.tail
	if probed(fd.q) {
		w += fmt.Sprintf("; the profile counted these %s in the whole column, not in the rows this plan's where, joins and grouping keep, which were not probed", fd.what)
	}
	return w
}

// count is the count of currencies as the profile says it.
func (fd currencyFinding) count() string {
	return fmt.Sprintf("%d %s (%s)", fd.n, fd.what, fd.held)
}

// probed reports whether a run probes a warning of q: q filters, joins or
// groups, so its rows may hold fewer currencies than the column.
func probed(q *planast.Query) bool {
	return q.Where != nil || len(q.GroupBy) > 0 || len(q.Joins) > 0 || len(q.From) > 1
}

// MaxCurrencyProbes bounds the currency warnings of one plan probed: each
// probe reads the plan's rows once more.
const MaxCurrencyProbes = 3

// CurrencyProbe is the probe of one currency (or unit) warning: Warning
// is its text as Static words it, Query the plan that counts the
// currencies of the rows summed (validate and run it as the caller, like
// any other), whose one row Verdict reads.
type CurrencyProbe struct {
	Warning string
	Query   *planast.Query
	fd      currencyFinding
}

// CurrencyProbes are the probes of plan's currency warnings that its
// where, joins or grouping may make wrong, the first MaxCurrencyProbes;
// none when there is none.
func CurrencyProbes(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []CurrencyProbe {
	var out []CurrencyProbe
	for _, fd := range currencyFindings(snap, plan, stored) {
		if len(out) == MaxCurrencyProbes {
			break
		}
		if fd.q == nil || !probed(fd.q) && !fd.unprofiled {
			continue
		}
		if p := currencyProbe(plan, fd); p != nil {
			out = append(out, CurrencyProbe{Warning: fd.text(), Query: p, fd: fd})
		}
	}
	return out
}

// currencyProbe is the plan that counts, per group of fd.q (its sources,
// joins, where and group_by, with fd's sources and joins added), the
// distinct values of fd.cur (letter case and surrounding spaces aside, as
// distinctLoose counts them): the number of groups, those holding more
// than one, and the most any holds. Nil when q is a subquery with CTEs of
// its own.
func currencyProbe(plan *planast.Query, fd currencyFinding) *planast.Query {
	q := fd.q
	if q != plan && len(q.With) > 0 {
		return nil
	}
	outer, err := copyQuery(plan)
	if err != nil {
		return nil
	}
	inner, err := copyQuery(q)
	if err != nil {
		return nil
	}
	for i, g := range inner.GroupBy {
		inner.GroupBy[i] = groupedExpr(inner, g)
		if l, ok := g.(*planast.Literal); ok && l.Type == planast.TInteger && l.Int >= 1 && int(l.Int) <= len(inner.Select) {
			inner.GroupBy[i] = inner.Select[l.Int-1].Expr // group by position
		}
	}
	cur, err := copyExpr(fd.cur)
	if err != nil {
		return nil
	}
	loose := &planast.Func{Name: "LOWER", Args: []planast.Expr{&planast.Func{Name: "TRIM", Args: []planast.Expr{cur}}}}
	inner.Select = []planast.SelectItem{{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{loose}, Distinct: true}, Alias: "currencies"}}
	inner.From = append(inner.From, fd.froms...)
	for _, j := range fd.joins {
		j.On = append([]planast.OnPair(nil), j.On...)
		inner.Joins = append(inner.Joins, j)
	}
	inner.With, inner.Having, inner.Qualify, inner.SetOps, inner.OrderBy = nil, nil, nil, nil, nil
	inner.Limit, inner.Offset, inner.WithTies, inner.Distinct = nil, nil, false, false
	n := func() *planast.Column { return &planast.Column{Table: "g", Column: "currencies"} }
	several := &planast.Case{Whens: []planast.When{{
		When: &planast.Binary{Op: planast.OpGt, Left: n(), Right: intLit(1)},
		Then: intLit(1)}}}
	return &planast.Query{
		With: outer.With,
		Select: []planast.SelectItem{
			{Expr: &planast.Func{Name: "COUNT"}, Alias: "groups"},
			{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{several}}, Alias: "mixed"},
			{Expr: &planast.Func{Name: "MAX", Args: []planast.Expr{n()}}, Alias: "most"},
		},
		From: []planast.From{{Subquery: inner, Alias: "g"}},
	}
}

// copyQuery is a fresh copy of q, to build a probe from.
func copyQuery(q *planast.Query) (*planast.Query, error) {
	b, err := planast.JSON(q)
	if err != nil {
		return nil, err
	}
	return planast.Decode(b, planast.DefaultLimits)
}

// Verdict reads the probe's row (groups, mixed, most): keep is false when
// no group of the rows summed holds more than one currency (or unit), or
// there are no rows; else w is the warning with the count the probe
// found. A row it cannot read keeps the warning as it was.
func (p CurrencyProbe) Verdict(row []any) (w string, keep bool) {
	if len(row) != 3 {
		return p.Warning, true
	}
	groups, ok1 := schema.Whole(row[0])
	mixed, ok2 := schema.Whole(row[1])
	most, ok3 := schema.Whole(row[2])
	if !ok1 || !ok2 {
		return p.Warning, true
	}
	if !ok3 || most <= 1 {
		return "", false // MAX of no group is NULL: no rows, no mix
	}
	fd := p.fd
	if fd.unprofiled {
		fd.head = strings.Replace(fd.head, " may add ", " adds ", 1)
	}
	switch {
	case fd.unprofiled && len(fd.q.GroupBy) == 0:
		return fd.head + fmt.Sprintf("%d %s (counted in the rows it sums; %s)", most, fd.what, fd.held) + fd.tail, true
	case len(fd.q.GroupBy) == 0 && most == int64(fd.n):
		return fd.head + fd.count() + fd.tail, true
	case len(fd.q.GroupBy) == 0:
		return fd.head + fmt.Sprintf("%d %s (counted in the rows it sums; of the whole column, %s)", most, fd.what, fd.held) + fd.tail, true
	}
	groupsWord := "groups"
	if groups == 1 {
		groupsWord = "group"
	}
	whole := "of the whole column, " + fd.held
	if fd.unprofiled {
		whole = fd.held
	}
	return fd.head + fmt.Sprintf("up to %d %s within one group (%d of its %d %s hold more than one, counted in the rows it sums; %s)", most, fd.what, mixed, groups, groupsWord, whole) + fd.tail, true
}
