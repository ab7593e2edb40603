package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// zonesDB: clinics in London and Amsterdam and one whose zone names
// none; sessions stored as instants (timestamptz; text with an offset on
// SQLite), and the time each was booked as text with an offset. Session
// 6 and 7 straddle London's change to summer time (2024-03-31 01:00 UTC).
var zonesDB = []string{
	"CREATE TABLE sites (id INTEGER PRIMARY KEY, name TEXT, timezone TEXT)",
	"INSERT INTO sites VALUES (1, 'London', 'Europe/London'), (2, 'Amsterdam', 'Europe/Amsterdam'), (3, 'Base', 'Mars/Olympus')",
	"CREATE TABLE appointments (id INTEGER PRIMARY KEY, site_id INTEGER REFERENCES sites(id), starts_at TIMESTAMPTZ, booked_at TEXT)",
	"INSERT INTO appointments VALUES" +
		" (1, 1, '2024-07-01 06:30:00+00:00', '2024-06-01T09:00:00+02:00')," + // London 07:30 (BST)
		" (2, 1, '2024-01-15 07:30:00+00:00', NULL)," + // London 07:30 (GMT)
		" (3, 1, '2024-07-01 07:15:00+00:00', NULL)," + // London 08:15
		" (4, 2, '2024-07-01 06:30:00+00:00', NULL)," + // Amsterdam 08:30 (CEST)
		" (5, 2, '2024-01-15 06:30:00+00:00', NULL)," + // Amsterdam 07:30 (CET)
		" (6, 1, '2024-03-31 00:59:59+00:00', NULL)," + // London 00:59:59 (GMT)
		" (7, 1, '2024-03-31 01:00:00+00:00', NULL)," + // London 02:00:00 (BST)
		" (8, 3, '2024-07-01 05:00:00+00:00', NULL)", // no such zone
}

// zoneJoin is the plan body over appointments a joined to their site s.
const zoneJoin = `"from":[{"table":"appointments","alias":"a"},{"table":"sites","alias":"s"}],` +
	`"joins":[{"left":"a","right":"s","on":[{"left_column":"site_id","right_column":"id"}]}]`

// localTime is AT_TIME_ZONE(a.starts_at, zone) as plan JSON.
func localTime(zone string) string {
	return `{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"a","column":"starts_at"},` + zone + `]}`
}

// The threat: "how many sessions started before 8 in the morning, clinic
// local time?" over instants and a zone per clinic. With no way to read
// an instant on a clinic's wall clock a host counted UTC hours: 8
// sessions, where 5 started before 8 local time (summer time moves
// London's sessions an hour later and Amsterdam's two). The zone comes
// from a column with two zones; a zone no engine knows gives NULL, never
// counted and never failing the other rows. SQLite, which holds no zone
// rules, answers as the others do (the adapter registers them).
func TestAtTimeZoneCountsLocalHours(t *testing.T) {
	for _, en := range everyEngine(zonesDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			count := func(x string) string {
				res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],`+zoneJoin+
					`,"where":{"kind":"binary","op":"<","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},`+x+`]},"right":{"kind":"literal","value":8}}}`)
				return fmt.Sprint(res.Rows)
			}
			if got := count(localTime(`{"kind":"column","table":"s","column":"timezone"}`)); got != "[[5]]" {
				t.Errorf("sessions before 8 local time: %s, want [[5]]", got)
			}
			if got := count(`{"kind":"column","table":"a","column":"starts_at"}`); got != "[[8]]" {
				t.Errorf("sessions before 8 UTC: %s, want [[8]] (the test data no longer tells the two apart)", got)
			}

			// the wall clock itself, a timestamp without zone (no +00:00
			// marker): summer and winter offsets, the zone per row, NULL
			// for a zone no one knows
			res := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"a","column":"id"},"alias":"id"},`+
				`{"expr":`+localTime(`{"kind":"column","table":"s","column":"timezone"}`)+`,"alias":"local"},`+
				`{"expr":`+localTime(`{"kind":"literal","value":"Europe/London"}`)+`,"alias":"london"}],`+zoneJoin+
				`,"order_by":[{"expr":{"kind":"column","column":"id"}}]}`)
			want := "[[1 2024-07-01 07:30:00 2024-07-01 07:30:00] [2 2024-01-15 07:30:00 2024-01-15 07:30:00] [3 2024-07-01 08:15:00 2024-07-01 08:15:00]" +
				" [4 2024-07-01 08:30:00 2024-07-01 07:30:00] [5 2024-01-15 07:30:00 2024-01-15 06:30:00] [6 2024-03-31 00:59:59 2024-03-31 00:59:59]" +
				" [7 2024-03-31 02:00:00 2024-03-31 02:00:00] [8 <nil> 2024-07-01 06:00:00]]"
			if got := fmt.Sprint(res.Rows); got != want {
				t.Errorf("local times\n%s\nwant\n%s", got, want)
			}
			if fmt.Sprint(res.ColumnTypes[1:]) != "[timestamp timestamp]" {
				t.Errorf("types %v, want timestamps", res.ColumnTypes)
			}
			// SQL pasted into a plain sqlite3 shell fails on the function
			// the server registers: the notes say so, there only
			if note := warningWith(res.SQLNotes, "tz_local_time"); (en.name == "sqlite") != strings.Contains(note, "a plain sqlite3 shell lacks it") {
				t.Errorf("sql notes %q", res.SQLNotes)
			}

			// text with an offset is the instant it names (the text-cast
			// rule): 09:00+02:00 is 07:00 UTC, 08:00 in London in June
			res = runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"a","column":"booked_at"},{"kind":"literal","value":"Europe/London"}]},"alias":"booked"}],`+
				`"from":[{"table":"appointments","alias":"a"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"a","column":"id"},"right":{"kind":"literal","value":1}}}`)
			if got := fmt.Sprint(res.Rows); got != "[[2024-06-01 08:00:00]]" {
				t.Errorf("booked_at in London: %s, want [[2024-06-01 08:00:00]]", got)
			}
		})
	}
}

// The threat: a host writes a zone the engines do not know ('europe/london',
// 'UTC+3', which PostgreSQL reads three hours west) and the query fails as
// a database error, or answers with the wrong offset. It is refused before
// any SQL, with a name to write instead.
func TestAtTimeZoneRefusesAnUnknownZone(t *testing.T) {
	e := specEngine(t, everyEngine(zonesDB)[1].spec(t))
	for zone, hint := range map[string]string{
		"europe/london": `did you mean "Europe/London"?`,
		"UTC+3":         "Etc/GMT-3 for UTC+3",
		"Mars/Olympus":  `"Europe/London"`,
		"Local":         `"Europe/London"`,
	} {
		_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":`+localTime(`{"kind":"literal","value":"`+zone+`"}`)+`,"alias":"t"}],"from":[{"table":"appointments","alias":"a"}]}`))
		var ee *Error
		if !errors.As(err, &ee) || ee.Code != CodePlanInvalid || len(ee.Issues) != 1 || ee.Issues[0].Code != "INVALID_VALUE" ||
			ee.Issues[0].Path != "select[0].expr.args[1]" || !strings.Contains(ee.Issues[0].Hint, hint) {
			t.Errorf("%s: %v, want one INVALID_VALUE at the zone hinting %s", zone, err, hint)
		}
	}
}
