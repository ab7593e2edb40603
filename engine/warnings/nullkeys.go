package warnings

import (
	"fmt"
	"math"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// nullKeys names the join keys a material share of whose rows are NULL
// on a side the join drops unmatched (either side of an inner join, the
// optional side of a left or right one): a NULL meets no row, so those
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
