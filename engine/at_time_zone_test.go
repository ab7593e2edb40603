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
		" (1, 1, '2024-07-01 06:30:00+00', '2024-06-01T09:00:00+02:00')," + // London 07:30 (BST)
		" (2, 1, '2024-01-15 07:30:00+00', NULL)," + // London 07:30 (GMT)
		" (3, 1, '2024-07-01 07:15:00+00', NULL)," + // London 08:15
		" (4, 2, '2024-07-01 06:30:00+00', NULL)," + // Amsterdam 08:30 (CEST)
		" (5, 2, '2024-01-15 06:30:00+00', NULL)," + // Amsterdam 07:30 (CET)
		" (6, 1, '2024-03-31 00:59:59+00', NULL)," + // London 00:59:59 (GMT)
		" (7, 1, '2024-03-31 01:00:00+00', NULL)," + // London 02:00:00 (BST)
		" (8, 3, '2024-07-01 05:00:00+00', NULL)", // no such zone
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
// counted and never failing the other rows.
func TestAtTimeZoneCountsLocalHours(t *testing.T) {
	for _, en := range everyEngine(zonesDB) {
		if en.name == "sqlite" {
			continue // TestAtTimeZoneRefusedOnSQLite
		}
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

// The threat: on SQLite, which holds no zone rules, the call reached the
// renderer and came back as an internal error (or, rendered with a
// fixed offset, as hours wrong half the year). It is refused at
// validation with what to do instead.
func TestAtTimeZoneRefusedOnSQLite(t *testing.T) {
	e := specEngine(t, everyEngine(zonesDB)[0].spec(t))
	_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":`+localTime(`{"kind":"literal","value":"Europe/London"}`)+`,"alias":"t"}],"from":[{"table":"appointments","alias":"a"}]}`))
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodePlanInvalid || len(ee.Issues) != 1 || ee.Issues[0].Code != "FUNCTION_NOT_ALLOWED" ||
		!strings.Contains(ee.Issues[0].Message, "SQLite holds no time-zone rules") || !strings.Contains(ee.Issues[0].Hint, "convert them in the answer") {
		t.Errorf("%v, want FUNCTION_NOT_ALLOWED saying SQLite holds no zone rules, with what to do instead", err)
	}
}

// The threat: check_plan asked for SQLite's SQL of a plan a DuckDB or
// PostgreSQL datasource validated came back as an internal error ("a
// validated plan failed to render"), a bug report for a plan that only
// cannot run there. It is refused as validation refuses it on SQLite.
func TestAtTimeZoneCheckedForSQLiteIsRefused(t *testing.T) {
	e := specEngine(t, everyEngine(zonesDB)[1].spec(t))
	_, err := e.CheckPlan(context.Background(), "air", []byte(`{"select":[{"expr":`+localTime(`{"kind":"literal","value":"Europe/London"}`)+`,"alias":"t"}],"from":[{"table":"appointments","alias":"a"}]}`), "sqlite")
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodePlanInvalid || len(ee.Issues) != 1 || ee.Issues[0].Code != "FUNCTION_NOT_ALLOWED" ||
		!strings.Contains(ee.Issues[0].Message, "SQLite holds no time-zone rules") || ee.Issues[0].Hint == "" {
		t.Errorf("%v, want FUNCTION_NOT_ALLOWED saying SQLite holds no zone rules, with a hint", err)
	}
}

// The threat: a host on SQLite refused an unknown function was told
// AT_TIME_ZONE is allowed there, and its next plan was refused again.
// The functions the hint lists are those the datasource's engine computes.
func TestFunctionsListedAreTheEnginesOwn(t *testing.T) {
	for i, want := range []bool{false, true} { // sqlite, duckdb
		en := everyEngine(zonesDB)[i]
		e := specEngine(t, en.spec(t))
		_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"FOO","args":[{"kind":"column","table":"a","column":"starts_at"}]},"alias":"t"}],"from":[{"table":"appointments","alias":"a"}]}`))
		var ee *Error
		if !errors.As(err, &ee) || len(ee.Issues) != 1 || !strings.Contains(ee.Issues[0].Hint, "scalar functions allowed here: ") ||
			strings.Contains(ee.Issues[0].Hint, "AT_TIME_ZONE") != want {
			t.Errorf("%s: %v, want the allowed functions listed with AT_TIME_ZONE %v", en.name, err, want)
		}
	}
}
