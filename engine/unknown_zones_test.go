package engine

import (
	"fmt"
	"strings"
	"testing"
)

// offsetZonesDB: offices whose zone column holds an IANA name, a UTC
// offset and a blank, kiosks whose zone column holds offsets only, and
// halls whose zone column holds IANA names only.
var offsetZonesDB = []string{
	"CREATE TABLE offices (id INTEGER PRIMARY KEY, tz TEXT)",
	"INSERT INTO offices VALUES (1, 'Europe/London'), (2, '+01:00'), (3, '')",
	"CREATE TABLE kiosks (id INTEGER PRIMARY KEY, tz TEXT)",
	"INSERT INTO kiosks VALUES (1, '+01:00'), (2, '-05:00')",
	"CREATE TABLE halls (id INTEGER PRIMARY KEY, tz TEXT)",
	"INSERT INTO halls VALUES (1, 'Europe/London'), (2, 'America/New_York')",
	"CREATE TABLE visits (id INTEGER PRIMARY KEY, office_id INTEGER REFERENCES offices(id), kiosk_id INTEGER REFERENCES kiosks(id), hall_id INTEGER REFERENCES halls(id), seen_at TIMESTAMPTZ)",
	"INSERT INTO visits VALUES (1, 1, 1, 1, '2024-07-01 06:30:00+00'), (2, 2, 2, 2, '2024-07-01 06:30:00+00'), (3, 3, 1, 1, '2024-07-01 06:30:00+00')",
}

// visitsLocal is the plan of each visit's local time, the zone read from
// the column tz of the table aliased z (offices or kiosks).
func visitsLocal(zones, key string) string {
	return `{"select":[{"expr":{"kind":"column","table":"v","column":"id"},"alias":"id"},` +
		`{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"v","column":"seen_at"},{"kind":"column","table":"z","column":"tz"}]},"alias":"local"}],` +
		`"from":[{"table":"visits","alias":"v"},{"table":"` + zones + `","alias":"z"}],` +
		`"joins":[{"left":"v","right":"z","on":[{"left_column":"` + key + `","right_column":"id"}]}],` +
		`"order_by":[{"expr":{"kind":"column","column":"id"}}]}`
}

// The threat: a column of zones holding offsets ('+01:00') or blanks,
// which AT_TIME_ZONE reads as NULL by design (no engine knows them as
// zone names), gave a column of NULL local times, all of them for a
// column of offsets, and not a word of why: a host reported the local
// times as unknown, or dropped the rows. The run names the values read
// as NULL and how to read them; a column of IANA names earns nothing.
func TestAtTimeZoneOfUnknownZonesWarned(t *testing.T) {
	for _, en := range everyEngine(offsetZonesDB) {
		if en.name == "sqlite" {
			continue // no AT_TIME_ZONE there
		}
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, visitsLocal("offices", "office_id"))
			if got := fmt.Sprint(res.Rows); got != "[[1 2024-07-01 07:30:00] [2 <nil>] [3 <nil>]]" {
				t.Errorf("local times %s, want London's and two NULLs", got)
			}
			w := zoneWarning(res.Warnings)
			for _, want := range []string{"AT_TIME_ZONE(v.seen_at, z.tz) is NULL wherever the zone is no IANA zone name", "2 of the 3 distinct values of offices.tz are none", "those rows read NULL", `"+01:00"`, `""`, "'Etc/GMT-1'", "say so in the answer"} {
				if !strings.Contains(w, want) {
					t.Errorf("offices: warning %q lacks %q (warnings %q)", w, want, res.Warnings)
				}
			}
			res = runAir(t, e, visitsLocal("kiosks", "kiosk_id"))
			if got := fmt.Sprint(res.Rows); got != "[[1 <nil>] [2 <nil>] [3 <nil>]]" {
				t.Errorf("kiosk local times %s, want all NULL", got)
			}
			if w := zoneWarning(res.Warnings); !strings.Contains(w, "every row reads NULL: the result is all NULL") || !strings.Contains(w, "no value of kiosks.tz is one") || !strings.Contains(w, `"-05:00"`) {
				t.Errorf("kiosks: warning %q, want every row said NULL and the offsets quoted", w)
			}
			res = runAir(t, e, visitsLocal("halls", "hall_id"))
			if got := fmt.Sprint(res.Rows); got != "[[1 2024-07-01 07:30:00] [2 2024-07-01 02:30:00] [3 2024-07-01 07:30:00]]" {
				t.Errorf("hall local times %s", got)
			}
			if w := zoneWarning(res.Warnings); w != "" {
				t.Errorf("halls: warning %q for a column of IANA names", w)
			}
		})
	}
}

// zoneWarning is the warning of zone names read as NULL among ws, "" when
// none.
func zoneWarning(ws []string) string {
	for _, w := range ws {
		if strings.Contains(w, "no IANA zone name") {
			return w
		}
	}
	return ""
}
