package warnings

import (
	"fmt"
	"math"
	"slices"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// nullKeys names the join keys a material share of whose rows are NULL
// on a side the join drops unmatched (either side of an inner join, the
// optional side of a left or right one when another column names those
// rows' match): a NULL meets no row, so those
// rows leave the result with nothing to say so. Refunds identified by
// order_id on some rows and by an order code on the others (42% of them)
// were joined to orders on order_id, and the refunds of those orders
// summed to a third of what was refunded. Another column of the same
// table that is set about where the key is not (their NULL shares add up
// to the whole) is named: it may identify those rows another way. The
// share is the profile's; a caller who may not see the profile (a row
// filter) is told nothing.
func nullKeys(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		for i, j := range q.Joins {
			for _, on := range j.On {
				for _, s := range []struct {
					alias, col string
					dropped    bool
				}{
					{j.Left, on.LeftColumn, j.Type == planast.JoinInner || j.Type == planast.JoinRight},
					{j.Right, on.RightColumn, j.Type == planast.JoinInner || j.Type == planast.JoinLeft},
				} {
					if !s.dropped {
						continue
					}
					sd, ok := sideOf(snap, q, &planast.Column{Table: s.alias, Column: s.col})
					if !ok || sd.t == nil || seen[sd.c] || !materialNulls(sd.c) {
						continue
					}
					if j.Type != planast.JoinInner && complement(sd.t, sd.c) == nil {
						// the optional side's rows that meet no row are
						// left out by what the outer join means (orders
						// nobody referred, of a list of referrers), unless
						// they name their match another way
						continue
					}
					seen[sd.c] = true
					out = append(out, nullKeyWarning(i, j.Type, sd))
				}
			}
		}
	})
	return out
}

// materialNulls reports whether c's profile counts NULL in a share of its
// rows no figure can ignore.
func materialNulls(c *schema.Column) bool {
	return c.Profile != nil && c.Profile.NullFraction >= schemactx.MaterialNulls
}

func nullKeyWarning(i int, typ planast.JoinType, s side) string {
	how := "the inner join leaves those rows out"
	if typ != planast.JoinInner {
		how = "the " + string(typ) + " join keeps none of them"
	}
	w := fmt.Sprintf("joins[%d]: %s is NULL in %s of %s rows (profiled), and a NULL key meets no row: %s", i, s.ref(), schemactx.NullShare(s.c.Profile.NullFraction), s.t.Name, how)
	if other := complement(s.t, s.c); other != nil {
		w += fmt.Sprintf("; %s.%s is set about where %s is not (%s NULL): it may name those rows' match another way", s.t.Name, other.Name, s.name, schemactx.NullShare(other.Profile.NullFraction))
	}
	return w
}

// complement is the one other column of t set about where c is NULL and
// NULL where it is set, by their NULL shares (which add up to the whole
// within two points); nil when there is none or more than one.
func complement(t *schema.Table, c *schema.Column) *schema.Column {
	var found *schema.Column
	for i := range t.Columns {
		o := &t.Columns[i]
		if o.Name == c.Name || o.Profile == nil || o.Profile.NullFraction == 0 {
			continue
		}
		if math.Abs(o.Profile.NullFraction+c.Profile.NullFraction-1) <= 0.02 {
			if found != nil {
				return nil
			}
			found = o
		}
	}
	return found
}

// unpairedKeys names the values of an inner join's left key that no row
// of the right side holds, when both columns' values are all known (codes,
// not ids): invoices joined to a rate table that holds no USD row lost
// every USD invoice, and the sum converted to dollars came back without
// the United States. A value the other side holds in another letter case
// or with spaces is keyWarnings' to name; a join that pairs nothing at all
// is no lookup and is left to the result. The fix keeps the rows with a
// left join.
func unpairedKeys(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		for i, j := range q.Joins {
			if j.Type != planast.JoinInner {
				continue
			}
			for _, on := range j.On {
				l, lok := sideOf(snap, q, &planast.Column{Table: j.Left, Column: on.LeftColumn})
				r, rok := sideOf(snap, q, &planast.Column{Table: j.Right, Column: on.RightColumn})
				if !lok || !rok || l.t == nil || r.t == nil || !textual(l.c) || !textual(r.c) {
					continue
				}
				lv, lall := knownValues(l.t, l.c, stored)
				rv, rall := knownValues(r.t, r.c, stored)
				if !lall || !rall || len(rv) == 0 {
					continue
				}
				held := map[string]bool{}
				for _, v := range rv {
					held[loose(v)] = true
				}
				var missing []string
				for _, v := range lv {
					if !held[loose(v)] && !slices.Contains(missing, v) {
						missing = append(missing, v)
					}
				}
				if len(missing) == 0 || len(missing) == len(slices.Compact(slices.Sorted(slices.Values(lv)))) {
					continue
				}
				slices.Sort(missing)
				w := fmt.Sprintf(`joins[%d]: %s holds %s, which %s never holds: the inner join leaves out every %s row holding %s; if they belong in the answer, make it a "left" join and decide what their NULLs in %s's columns mean`,
					i, l.ref(), someQuoted(missing), r.ref(), l.t.Name, pronoun(len(missing)), r.alias)
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	})
	return out
}
