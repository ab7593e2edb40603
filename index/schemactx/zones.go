package schemactx

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// ZoneColumn reports whether c holds IANA time-zone names, one per row
// ('Europe/London', 'America/New_York'): a text column more than half of
// whose sampled values name a zone of the tz database with a '/' in it.
// The values decide, not the name: a column named timezone may hold
// offsets ('+01:00') or abbreviations ('CET'), which no AT_TIME_ZONE
// reads the same on every engine, and the tz database also names
// countries ('GB', 'Japan', 'Poland'), which a column of countries holds;
// a name with a '/' is a region's zone. A misspelt row or two ('Mars/x')
// leaves a column of zones one.
func ZoneColumn(c *schema.Column) bool {
	p := c.Profile
	if c.Type != planast.TypeText || p == nil || len(p.SampleValues) == 0 {
		return false
	}
	// most columns are none: the slashes first, tz lookups only for them
	var named []string
	for _, v := range p.SampleValues {
		if s, ok := v.(string); ok && strings.Contains(s, "/") {
			named = append(named, s)
		}
	}
	if 2*len(named) <= len(p.SampleValues) {
		return false
	}
	zones := 0
	for _, s := range named {
		if validate.ZoneName(s) {
			zones++
		}
	}
	return 2*zones > len(p.SampleValues)
}

// ZoneNames are the values of zone column c (ZoneColumn) that name a
// zone, as sampled.
func ZoneNames(c *schema.Column) []string {
	var out []string
	for _, v := range c.Profile.SampleValues {
		if s, ok := v.(string); ok && strings.Contains(s, "/") && validate.ZoneName(s) {
			out = append(out, s)
		}
	}
	return out
}

// ZoneNote is what a schema says of a zone column (ZoneColumn): the
// instants a database holds (timestamptz, text with a UTC offset) read
// in UTC, so an hour, a day or a date of one is UTC's unless converted,
// and a zone column beside them is what converts them, on every engine.
const ZoneNote = "IANA time zones: instants read in UTC; AT_TIME_ZONE(instant, this column) gives the local time, for local hours, days and dates"

// InstantColumn reports whether c holds instants, which every plan
// reads in UTC: a timestamp with a time zone (timestamptz, TIMESTAMP
// WITH TIME ZONE), or text (or a SQLite timestamp, text too) that writes
// them: one of its sampled values, or an end of its profiled range, is a
// timestamp ending in Z or a UTC offset ('2024-06-01T09:00:00+02:00'),
// which the text-cast rule reads as the instant in UTC. One is enough: a
// column two apps wrote, one '2024-03-01T09:00:00Z' and the other
// '2024-03-01 09:00:00', holds instants in both spellings, and its
// examples may be mostly of the second.
func InstantColumn(c *schema.Column) bool {
	if c.Type == planast.TypeTimestamp && ZonedType(c) {
		return true
	}
	p := c.Profile
	if p == nil || c.Type != planast.TypeText && c.Type != planast.TypeTimestamp {
		return false
	}
	zoned := func(v any) bool {
		s, ok := v.(string)
		return ok && zonedTimestamp(s)
	}
	return zoned(p.Min) || zoned(p.Max) || slices.ContainsFunc(p.SampleValues, zoned)
}

// utcSuffix is the Z or UTC offset (±HH:MM) the text-cast rule reads at
// the end of a timestamp.
var utcSuffix = regexp.MustCompile(`(Z|[+-][0-2][0-9]:[0-5][0-9])$`)

// zonedTimestamp reports whether s is a timestamp (a date and a time of
// day) ending in Z or a UTC offset.
func zonedTimestamp(s string) bool {
	loc := utcSuffix.FindStringIndex(s)
	if loc == nil {
		return false
	}
	t := s[:loc[0]]
	return len(t) > len("2006-01-02") && planast.TextHolds(t, planast.CastTimestamp)
}

// ZonedType reports whether c's declared type is a timestamp with time
// zone (timestamptz, TIMESTAMP WITH TIME ZONE): an instant, which plans
// read in UTC.
func ZonedType(c *schema.Column) bool {
	return c.Type == planast.TypeTimestamp && schema.Zoned(c.DeclaredType)
}
