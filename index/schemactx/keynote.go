package schemactx

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// KeyNote says, after a single-column foreign key, what keeps a plain
// join on it from pairing rows, so a planner writes the join that works
// the first time: the two columns are of types the validator will not
// compare (an integer id referenced from a text column), or the values of
// one side are stored with surrounding spaces and the other's without
// (flights.SourceAirport " AHD" against airports.AirportCode "AHD": the
// join pairs nothing). Spaces are judged from the profiles' samples: every
// sample of one side has them and none of the other's (two at least each),
// so a column with a stray padded value is not marked. It is "" for a
// key of several columns or a plain one, else " (…)".
func KeyNote(snap *schema.Snapshot, t *schema.Table, fk schema.ForeignKey) string {
	if len(fk.Columns) != 1 || len(fk.RefColumns) != 1 {
		return ""
	}
	c, ok := t.Column(fk.Columns[0])
	if !ok {
		return ""
	}
	rt, ok := snap.Lookup(fk.RefSchema, fk.RefTable)
	if !ok {
		return ""
	}
	rc, ok := rt.Column(fk.RefColumns[0])
	if !ok {
		return ""
	}
	if c.Type != rc.Type && (c.Type == planast.TypeText) != (rc.Type == planast.TypeText) &&
		c.Type != planast.TypeUnknown && rc.Type != planast.TypeUnknown {
		// the text side cast to the other's type, in a join's condition: an
		// "on" pair of the two types is refused
		here, there := c.Name, rc.Name
		if c.Type == planast.TypeText {
			here = "CAST(" + here + " AS " + string(rc.Type) + ")"
		} else {
			there = "CAST(" + there + " AS " + string(c.Type) + ")"
		}
		return " (" + string(rc.Type) + " there: join with \"condition\" " + here + " = " + there + ", not an \"on\" pair)"
	}
	if c.Type != planast.TypeText || rc.Type != planast.TypeText {
		return ""
	}
	here, there := padded(c.Profile), padded(rc.Profile)
	if here != there && here >= 0 && there >= 0 {
		return " (stored with surrounding spaces on one side only: join on TRIM of both)"
	}
	return ""
}

// padded is 1 when every sampled value of p has surrounding spaces, 0 when
// none has, -1 when some have or there are fewer than two samples.
func padded(p *schema.ColumnProfile) int {
	if p == nil {
		return -1
	}
	n, spaced := 0, 0
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok {
			continue
		}
		n++
		if strings.TrimSpace(s) != s {
			spaced++
		}
	}
	switch {
	case n < 2:
		return -1
	case spaced == n:
		return 1
	case spaced == 0:
		return 0
	}
	return -1
}
