package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// repeatedKeys name the tables an aggregate reads whose id column repeats
// a value in a few rows: an export that wrote a record twice. COUNT(*) of
// customers said 31 where 30 customers are stored, a sum over payments
// counted one payment twice, and nothing in a plain count shows it. The
// profile knows: the table's own id column (ownID: "id", "customer_id"
// of customers, a first column "InvoiceId") with no NULL whose distinct
// values fall short of the rows by at most 5%. A table with a declared primary key is left out (its key is
// unique where it is enforced), so is a profile that read only part of
// the table (its count is a lower bound), and so is a query that already
// counts the column's distinct values.
//
// A table whose profile counted rows that repeat another exactly (every
// column equal) is named for that instead, with the rows copied, when an
// aggregate that counts copies reads it (not MIN, MAX or a DISTINCT one):
// a log exported twice has no id to repeat.
//
// Any other identifier column of a table read by such an aggregate that
// is nearly unique (schemactx.RepeatedIDs: a bank reference or an order
// number of which a few rows repeat another's, key or none) and that the
// plan never reads is named too: a payment imported twice counted twice
// in a month's receipts, and the schema said so only in its notes. Not
// when the table's exact copies account for all its repeats: the copies'
// warning says them.
func repeatedKeys(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []string {
	var out []string
	for _, fd := range repeatFindings(snap, plan, columns) {
		if w := fd.text(); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// repeatFindings are the warnings of repeatedKeys, each with what a probe
// of the rows the plan reads needs (repeatFinding).
func repeatFindings(snap *schema.Snapshot, plan *planast.Query, columns func() map[string]bool) []repeatFinding {
	var out []repeatFinding
	seen := map[*schema.Table]bool{}
	eachQuery(plan, func(q *planast.Query) {
		aggregates, counting, distinctOf := false, false, map[string]bool{}
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok {
				return
			}
			spec, ok := planast.LookupFunc(f.Name)
			if !ok || spec.Kind != planast.Aggregate {
				return
			}
			aggregates = true
			name := strings.ToUpper(f.Name)
			counting = counting || !f.Distinct && name != "MIN" && name != "MAX"
			if f.Distinct && len(f.Args) == 1 {
				if c, ok := f.Args[0].(*planast.Column); ok {
					distinctOf[strings.ToLower(c.Column)] = true
				}
			}
		})
		if !aggregates {
			return
		}
		for _, from := range q.From {
			if from.Subquery != nil {
				if counting {
					for _, w := range distinctKeepsRepeats(snap, from.Subquery, seen) {
						out = append(out, repeatFinding{head: w})
					}
				}
				continue
			}
			t, ok := snap.Lookup(from.Schema, from.Table)
			if !ok || seen[t] {
				continue
			}
			at := repeatFinding{t: t, from: from, filter: ownFilter(q, from.Alias)}
			if counting {
				copies := int64(0) // said below, when the table has no key
				if len(t.PrimaryKey) == 0 && t.RowCount != nil && *t.RowCount >= 2 {
					copies = t.DuplicateRows
				}
				for _, fd := range repeatedRefs(snap, t, columns, copies) {
					fd.t, fd.from, fd.filter = t, from, at.filter
					if !slices.ContainsFunc(out, func(o repeatFinding) bool { return o.text() == fd.text() }) {
						out = append(out, fd)
					}
				}
			}
			if len(t.PrimaryKey) > 0 || t.RowCount == nil || *t.RowCount < 2 {
				continue
			}
			if t.DuplicateRows > 0 {
				if counting {
					seen[t] = true
					at.kind = repeatCopies
					out = append(out, at)
				}
				continue
			}
			if c, _ := repeatedID(t); c != nil && !distinctOf[strings.ToLower(c.Name)] {
				seen[t] = true
				at.kind, at.col = repeatOwnID, c
				out = append(out, at)
			}
		}
	})
	return out
}

// repeatedRefs names t's nearly unique identifier columns that the plan
// never reads (columns: what it reads, lower case), for an aggregate that
// counts or sums t's rows. A column whose repeats the table's exact
// copies account for (no more of them than copies, which the table's own
// warning names) is left out: two warnings of one fact, the second
// suggesting a grouping the copies' distinct read makes needless, made
// the answer's warnings longer than the answer.
func repeatedRefs(snap *schema.Snapshot, t *schema.Table, columns func() map[string]bool, copies int64) []repeatFinding {
	var out []repeatFinding
	for i := range t.Columns {
		c := &t.Columns[i]
		extra, ok := schemactx.RepeatedIDs(snap, t, c)
		if !ok || columns()[strings.ToLower(c.Name)] || extra <= copies {
			continue
		}
		out = append(out, repeatFinding{t: t, kind: repeatRef, col: c, extra: extra})
	}
	return out
}

// repeatedID is t's own id column when a few of its rows repeat a value
// of it (see repeatedKeys) and how many do; nil when none does.
func repeatedID(t *schema.Table) (*schema.Column, int64) {
	if len(t.PrimaryKey) > 0 || t.RowCount == nil || *t.RowCount < 2 {
		return nil, 0
	}
	rows := *t.RowCount
	for i := range t.Columns {
		c := &t.Columns[i]
		p := c.Profile
		if p == nil || !ownID(t.Name, c.Name, i) || p.SampledRows > 0 || p.NullFraction > 0 ||
			p.DistinctCount >= rows || p.DistinctCount*100 < rows*95 {
			continue
		}
		return c, rows - p.DistinctCount
	}
	return nil, 0
}

// distinctKeepsRepeats explain a subquery with "distinct" that an
// aggregate reads, meant to drop the copies of a record (its id repeats
// in its table): DISTINCT drops a copy only when every column selected
// is equal, and a copy re-imported with another spelling ('cu0006' and
// 'CU0006', a trailing space) or another time stamp stays, and is
// counted or summed twice with nothing said. Said when the subquery
// selects the repeated id beside other columns, unless every repeat is an
// exact copy of its row (the profile counts those), which distinct drops;
// grouping by the id, or a subquery of the ids alone, keeps one row per
// record.
func distinctKeepsRepeats(snap *schema.Snapshot, sub *planast.Query, seen map[*schema.Table]bool) []string {
	if !sub.Distinct || len(sub.Select) < 2 || len(sub.GroupBy) > 0 {
		return nil
	}
	var out []string
	for _, from := range sub.From {
		if from.Subquery != nil {
			continue
		}
		t, ok := snap.Lookup(from.Schema, from.Table)
		if !ok || seen[t] {
			continue
		}
		c, extra := repeatedID(t)
		if c != nil && t.DuplicateRows >= extra {
			// every repeat of the id is an exact copy of its row, equal
			// in whatever columns the subquery selects: distinct drops it
			continue
		}
		if c == nil || !slices.ContainsFunc(sub.Select, func(it planast.SelectItem) bool {
			r, ok := it.Expr.(*planast.Column)
			return ok && (r.Table == from.Alias || r.Table == "") && strings.EqualFold(r.Column, c.Name)
		}) {
			continue
		}
		seen[t] = true
		out = append(out, fmt.Sprintf("%d rows of table %q repeat another row's id %q, and the subquery with \"distinct\" that the aggregate reads drops a repeat only when every column it selects is equal: a repeat written with another spelling or time stays and is counted twice; group the subquery by %s (one row per record, the other columns by MIN or MAX) instead of distinct",
			extra, t.Name, c.Name, c.Name))
	}
	return out
}

// ownID reports whether column name (the i-th) names its table's own
// record id: "id", the table's name made singular with "_id" or "Id"
// ("customer_id" of customers), or the first column when its name ends
// so. A foreign key ("appointment_id" of invoices, where a voided invoice
// and its reissue share a visit) repeats by design.
func ownID(table, name string, i int) bool {
	l := strings.ToLower(name)
	stem := strings.TrimSuffix(strings.ToLower(table), "s")
	switch {
	case l == "id", l == stem+"_id", l == stem+"id":
		return true
	case i == 0:
		return idNamed(name)
	}
	return false
}

// idNamed reports whether a column's name ends as an id's does: "id",
// "…_id", or "…Id" after a lower-case letter ("InvoiceId", not "PAID").
func idNamed(name string) bool {
	l := strings.ToLower(name)
	return l == "id" || strings.HasSuffix(l, "_id") || len(name) > 2 && strings.HasSuffix(name, "Id") && name[len(name)-3] >= 'a' && name[len(name)-3] <= 'z'
}
