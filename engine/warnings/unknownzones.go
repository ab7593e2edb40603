package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// unknownZones names each column of zones an AT_TIME_ZONE reads (its
// second argument a column of a stored table) whose profiled values
// include some that name no zone of the tz database (validate.ZoneName):
// an offset ('+01:00'), a blank, an abbreviation ('CET'), a misspelling.
// The call gives NULL for those rows by design (render's KnownZone guards
// it, so one bad row does not fail the others), and a column of offsets
// gave an all-NULL result with no word of why. The warning quotes the
// values, says whether they are all of the column's or among its most
// frequent, and how to read them; a literal zone is refused at
// validation instead.
func unknownZones(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || !strings.EqualFold(f.Name, "AT_TIME_ZONE") || len(f.Args) != 2 {
				return
			}
			ref, ok := f.Args[1].(*planast.Column)
			if !ok {
				return
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || seen[c] || c.Profile == nil {
				return
			}
			seen[c] = true
			if w := unknownZoneWarning(f, t, c); w != "" {
				out = append(out, w)
			}
		})
	})
	return out
}

// unknownZoneWarning is unknownZones' warning of call f reading zone
// column c of table t, "" when every profiled value names a zone.
func unknownZoneWarning(f *planast.Func, t *schema.Table, c *schema.Column) string {
	p := c.Profile
	var bad []string
	for _, v := range p.SampleValues {
		s, ok := v.(string)
		if !ok {
			s = fmt.Sprint(v)
		}
		if !validate.ZoneName(s) {
			bad = append(bad, s)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	col := t.Name + "." + c.Name
	are := "are"
	if len(bad) == 1 {
		are = "is"
	}
	some := fmt.Sprintf("%d of the %d distinct values of %s %s none (%s), so those rows read NULL", len(bad), len(p.SampleValues), col, are, someQuoted(bad))
	switch {
	case !p.AllValues:
		some = fmt.Sprintf("%d of the %d most frequent values of %s (profiled) %s none (%s), so those rows read NULL, and rarer values may too", len(bad), len(p.SampleValues), col, are, someQuoted(bad))
	case len(bad) == len(p.SampleValues):
		some = fmt.Sprintf("no value of %s is one (%s), so every row reads NULL: the result is all NULL", col, someQuoted(bad))
	}
	return fmt.Sprintf("%s is NULL wherever the zone is no IANA zone name, by design: %s. "+
		"Map each to its IANA name with a CASE over the column (a fixed offset is Etc/GMT with the sign inverted: '+01:00' is 'Etc/GMT-1'; a place's name, e.g. 'Europe/Paris', follows its summer time), "+
		"or leave those rows out and say so in the answer",
		exprText(f), some)
}
