package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// localParts are the parts of an instant whose value a time zone moves
// for a share of rows no figure can ignore, each as a warning says it: the
// hour moves for every instant, the day (of the month, week or year, a
// date, a day's truncation or label) for those within the zone's offset
// of midnight, a twelfth to a third of a day's instants for offsets of
// two to eight hours. A week, month, quarter or year moves too, but only
// at its boundary: an offset of two hours moves 1% of a week's instants,
// 0.3% of a month's and 0.02% of a year's, and a warning on every monthly
// or yearly figure over instants would bury the ones that change an
// answer; those are left to the question. The minute (DATE_PART, or a
// truncation to it) moves only in the few zones of a half or quarter
// hour offset (Asia/Kolkata), and is left out too.
var localParts = map[string]map[string]string{
	"DATE_PART":    {"hour": "the hour", "day": "the day of the month", "dow": "the day of the week", "doy": "the day of the year"},
	"DATE_TRUNC":   {"hour": "the hour", "day": "the day"},
	"PERIOD_LABEL": {"day": "the day"},
}

// localTimes names each instant column (schemactx.InstantColumn: a
// timestamptz, text with a UTC offset) whose hour or day a plan takes
// (localParts, a cast to date) without AT_TIME_ZONE, on a datasource
// holding a column of IANA zone names (schemactx.ZoneColumn): sessions
// "before 8 in the morning, clinic local time" counted by UTC hours gave
// 460 where the clinics' own clocks gave 140, and the zone of each clinic
// was a join away. Instants read in UTC on every engine, and that is the
// answer when the question means UTC; the warning says which the plan
// took and writes the conversion as plan JSON that reads the zone column:
// through the plan's own source of its table, else the joins through
// declared foreign keys that reach it (holdersOf, as the currency
// warnings find a currency); SQLite converts as the others do (the
// adapter registers the tz rules). A plan that converts the column
// anywhere (AT_TIME_ZONE over it) decided already.
func localTimes(snap *schema.Snapshot, plan *planast.Query) []string {
	type read struct {
		q    *planast.Query
		expr planast.Expr
		ref  *planast.Column
		t    *schema.Table
		c    *schema.Column
		what string
	}
	var reads []read
	converted, seen := map[*schema.Column]bool{}, map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		take := func(e, x planast.Expr, what string, written bool) {
			ref, ok := timestampOperand(x).(*planast.Column)
			if !ok {
				return
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c != nil && !seen[c] && schemactx.InstantColumn(c) && !(written && c.Type == planast.TypeText) {
				seen[c] = true
				reads = append(reads, read{q, e, ref, t, c, what})
			}
		}
		inspectQuery(q, func(e planast.Expr) {
			switch x := e.(type) {
			case *planast.Cast:
				// text with an offset cast to date is the day it writes,
				// its writer's clock (offsetDays), not UTC's
				if x.Type == planast.CastDate {
					_, written := x.Expr.(*planast.Column)
					take(x, x.Expr, "the date", written)
				}
			case *planast.Func:
				name := strings.ToUpper(x.Name)
				if name == "AT_TIME_ZONE" && len(x.Args) == 2 {
					if ref, ok := timestampOperand(x.Args[0]).(*planast.Column); ok {
						if _, c := emptyrange.TableOfColumn(snap, q, ref); c != nil {
							converted[c] = true
						}
					}
					return
				}
				if len(x.Args) != 2 {
					return
				}
				if unit, ok := x.Args[0].(*planast.Literal); ok {
					if what := localParts[name][strings.ToLower(unit.Text)]; what != "" {
						take(x, x.Args[1], what, false)
					}
				}
			}
		})
	})
	if len(reads) == 0 {
		return nil
	}
	var zoned []*schema.Table // the tables holding a zone column, looked for only now: most plans read no instant
	for i := range snap.Tables {
		if zoneColumnOf(&snap.Tables[i]) != nil {
			zoned = append(zoned, &snap.Tables[i])
		}
	}
	if len(zoned) == 0 {
		return nil
	}
	var out []string
	for _, r := range reads {
		if converted[r.c] {
			continue
		}
		head := fmt.Sprintf("%s takes %s of %s.%s, which holds instants, in UTC", exprText(r.expr), r.what, r.t.Name, r.c.Name)
		out = append(out, head+zoneFix(snap, plan, r.q, r.ref, r.t, zoned))
	}
	return out
}

// timestampOperand is x without the casts to timestamp around it: the
// instant they read is x's.
func timestampOperand(x planast.Expr) planast.Expr {
	for {
		c, ok := x.(*planast.Cast)
		if !ok || c.Type != planast.CastTimestamp {
			return x
		}
		x = c.Expr
	}
}

// zoneColumnOf is t's first column of zone names (schemactx.ZoneColumn),
// nil when it has none.
func zoneColumnOf(t *schema.Table) *schema.Column {
	for i := range t.Columns {
		if c := &t.Columns[i]; schemactx.ZoneColumn(c) {
			return c
		}
	}
	return nil
}

// zoneFix is the rest of localTimes' warning of instant column ref (of
// stored table t) in q: the zone column, and how to read the local time
// with it. The zone comes from t itself, a source of q holding one, or
// the one table t's rows belong to through declared foreign keys that
// holds one (the joins written out); else the zone tables are named.
func zoneFix(snap *schema.Snapshot, plan, q *planast.Query, ref *planast.Column, t *schema.Table, zoned []*schema.Table) string {
	src := storedSource(snap, q, ref, t)
	alias, path, joins := "", "", ""
	var zt *schema.Table
	if src != nil && zoneColumnOf(t) != nil {
		zt, alias = t, src.Alias
	}
	for i := 0; zt == nil && i < len(q.From); i++ {
		fr := &q.From[i]
		if st, ok := snap.Lookup(fr.Schema, fr.Table); ok && fr.Subquery == nil && zoneColumnOf(st) != nil {
			zt, alias = st, fr.Alias
		}
	}
	if zt == nil && src != nil {
		if hs := holdersOf(snap, t, zoneColumnOf); len(hs) == 1 {
			h := hs[0]
			var froms, js []string
			_, _, froms, js, path, alias = joinHops(snap, usedAliases(plan), src.Alias, h.hops)
			zt = h.hops[len(h.hops)-1].to
			joins = fmt.Sprintf(`, adding %s to "from" and %s to "joins" (each row of %s belongs to one of %s: %s)`,
				strings.Join(froms, ", "), strings.Join(js, ", "), t.Name, zt.Name, path)
		}
	}
	if zt == nil {
		held := make([]string, len(zoned))
		for i, z := range zoned {
			held[i] = zoneHeld(z)
		}
		convert := "join the table holding the zone of each row of " + t.Name + " and read AT_TIME_ZONE(instant, zone) in its place"
		return fmt.Sprintf(", while %s, which this plan does not reach: if the question means local time, %s", strings.Join(held, "; "), convert)
	}
	held := zoneHeld(zt)
	zone := &planast.Column{Table: alias, Column: zoneColumnOf(zt).Name}
	fix, _ := planast.JSON(&planast.Func{Name: "AT_TIME_ZONE", Args: []planast.Expr{ref, zone}})
	return fmt.Sprintf(", while %s: if the question means local time, read %s in its place (each zone's offset on that day, summer time included)%s", held, fix, joins)
}

// zoneHeld says which column of zone table z holds zones, and some.
func zoneHeld(z *schema.Table) string {
	c := zoneColumnOf(z)
	return fmt.Sprintf("%s.%s holds time zones (%s)", z.Name, c.Name, someQuoted(schemactx.ZoneNames(c)))
}
