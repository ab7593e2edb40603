package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The threat: "how many sessions started before 8 in the morning, clinic
// local time?" over instants and a zone column per clinic. A plan took
// DATE_PART('hour') of the timestamptz as it reads, in UTC, and answered
// with UTC hours (8 here, 5 on the clinics' clocks), with nothing to say
// the hours were not local. The run names the column and gives the
// conversion reading the zone: through the plan's own join, or the join
// through the foreign key it must add; on SQLite, which cannot convert,
// it says to convert in the answer. A plan that converts, or takes only
// the month, and a datasource whose "timezone" holds offsets rather than
// zone names, are told nothing.
func TestLocalHoursOfInstantsAreNamedUTC(t *testing.T) {
	hourOf := func(x string) string {
		return `{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},` + x + `]}`
	}
	count := func(from, where string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` + from +
			`,"where":{"kind":"binary","op":"<","left":` + where + `,"right":{"kind":"literal","value":8}}}`
	}
	starts := `{"kind":"column","table":"a","column":"starts_at"}`
	alone := `"from":[{"table":"appointments","alias":"a"}]`
	zoneWarning := func(ws []string) string {
		for _, w := range ws {
			if strings.Contains(w, "in UTC, while") {
				return w
			}
		}
		return ""
	}
	offsets := append(slices.Clone(zonesDB), "UPDATE sites SET timezone = '+01:00'")
	for i, en := range everyEngine(zonesDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))

			// joined to its site: the fix reads the joined zone
			w := zoneWarning(runAir(t, e, count(zoneJoin, hourOf(starts))).Warnings)
			want := []string{`DATE_PART('hour', a.starts_at) takes the hour of appointments.starts_at, which holds instants, in UTC`,
				`sites.timezone holds time zones ("Europe/Amsterdam", "Europe/London")`,
				`read {"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"a","column":"starts_at"},{"kind":"column","table":"s","column":"timezone"}]} in its place`}
			for _, s := range want {
				if !strings.Contains(w, s) {
					t.Errorf("joined: warning %q\nlacks %q", w, s)
				}
			}

			// appointments alone: the join through site_id is written out
			w = zoneWarning(runAir(t, e, count(alone, hourOf(starts))).Warnings)
			want = []string{`adding {"table":"sites","alias":"s"} to "from" and {"type":"left","left":"a","right":"s","on":[{"left_column":"site_id","right_column":"id"}]} to "joins" (each row of appointments belongs to one of sites: appointments.site_id → sites)`}
			for _, s := range want {
				if !strings.Contains(w, s) {
					t.Errorf("alone: warning %q\nlacks %q", w, s)
				}
			}

			// the hour of text with an offset is UTC's too; its day (a
			// cast to date) is the day it writes, its writer's clock
			booked := `{"kind":"column","table":"a","column":"booked_at"}`
			if w := zoneWarning(runAir(t, e, count(alone, hourOf(booked))).Warnings); !strings.Contains(w, "takes the hour of appointments.booked_at, which holds instants, in UTC") {
				t.Errorf("text with an offset: %q, want its hour named UTC", w)
			}
			dow := `{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"dow"},` + booked + `]}`
			if w := zoneWarning(runAir(t, e, count(alone, dow)).Warnings); w != "" {
				t.Errorf("the written day of text with an offset: %q, want no warning saying UTC", w)
			}
			// a cast to date of the instants takes the UTC date
			date := `{"kind":"func","name":"COUNT","args":[{"kind":"cast","type":"date","expr":` + starts + `}]}`
			res := runAir(t, e, `{"select":[{"expr":`+date+`,"alias":"n"}],`+alone+`}`)
			if w := zoneWarning(res.Warnings); !strings.Contains(w, "takes the date of appointments.starts_at") {
				t.Errorf("cast to date: %q, want the date named UTC", w)
			}

			// quiet: the month alone; a plan that converts
			month := `{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"month"},` + starts + `]}`
			if w := zoneWarning(runAir(t, e, count(alone, month)).Warnings); w != "" {
				t.Errorf("month: %q, want no warning (a month moves only at its boundary)", w)
			}
			local := count(zoneJoin, hourOf(localTime(`{"kind":"column","table":"s","column":"timezone"}`)))
			if w := zoneWarning(runAir(t, e, local).Warnings); w != "" {
				t.Errorf("converted: %q, want no warning", w)
			}
			// converted in its filter, the plan decided on its zone:
			// the day it groups by is its own choice
			day := `{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"day"},` + starts + `]}`
			byDay := `{"select":[{"expr":` + day + `,"alias":"d"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` + zoneJoin +
				`,"where":{"kind":"binary","op":"<","left":` + hourOf(localTime(`{"kind":"column","table":"s","column":"timezone"}`)) + `,"right":{"kind":"literal","value":8}},"group_by":[` + day + `]}`
			if w := zoneWarning(runAir(t, e, byDay).Warnings); w != "" {
				t.Errorf("converted in the filter: %q, want no warning", w)
			}
		})
		t.Run(en.name+"/offsets", func(t *testing.T) {
			// a column named timezone that holds offsets names no zone
			e := specEngine(t, everyEngine(offsets)[i].spec(t))
			if w := zoneWarning(runAir(t, e, count(zoneJoin, hourOf(starts))).Warnings); w != "" {
				t.Errorf("offsets: %q, want no warning", w)
			}
		})
	}
}

// The threat: orders placed "between 10 pm and midnight local time" over
// a SQLite text column two apps wrote, one '2024-03-05T03:30:00Z', the
// other '2024-03-05 04:10:00' (both UTC), with a zone per city a join
// away. The profile's examples were all of the second spelling, so the
// column was not taken for instants and a plan counting UTC hours was
// told nothing: 46 where the answer was 8. One value in Z shows what the
// column holds; the run names the hour as UTC's and gives the conversion,
// which SQLite runs, and the converted count is the local one.
func TestLocalHoursOfTextInstantsWrittenTwoWays(t *testing.T) {
	stmts := []string{
		"CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, timezone TEXT)",
		"INSERT INTO cities VALUES (1, 'Chicago', 'America/Chicago'), (2, 'Berlin', 'Europe/Berlin')",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, city_id INTEGER REFERENCES cities(id), placed_at TEXT)",
		// Chicago 22:30 and 23:10 on 4 March (UTC-6), Berlin 23:30 on 4
		// March (UTC+1); the rest before 22:00 local
		"INSERT INTO orders VALUES (1, 1, '2024-03-05T04:30:00Z'), (2, 1, '2024-03-05 05:10:00'), (3, 2, '2024-03-04T22:30:00Z')," +
			" (4, 2, '2024-03-04 12:00:00'), (5, 2, '2024-03-04 13:00:00'), (6, 1, '2024-03-04 15:00:00'), (7, 1, '2024-03-04 16:00:00'), (8, 2, '2024-03-04 20:00:00')",
	}
	hour := func(x string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"from":[{"table":"orders","alias":"o"},{"table":"cities","alias":"c"}],"joins":[{"left":"o","right":"c","on":[{"left_column":"city_id","right_column":"id"}]}],` +
			`"where":{"kind":"binary","op":">=","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},` + x + `]},"right":{"kind":"literal","value":22}}}`
	}
	placed := `{"kind":"column","table":"o","column":"placed_at"}`
	e := specEngine(t, everyEngine(stmts)[0].spec(t))
	res := runAir(t, e, hour(placed))
	if fmt.Sprint(res.Rows) != "[[1]]" {
		t.Errorf("UTC hours: %v, want [[1]]", res.Rows)
	}
	w := warningWith(res.Warnings, "which holds instants, in UTC")
	fix := `{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"o","column":"placed_at"},{"kind":"column","table":"c","column":"timezone"}]}`
	if !strings.Contains(w, "takes the hour of orders.placed_at") || !strings.Contains(w, fix) {
		t.Fatalf("warnings %q, want the hour named UTC with the conversion", res.Warnings)
	}
	if got := fmt.Sprint(runAir(t, e, hour(fix)).Rows); got != "[[3]]" {
		t.Errorf("local hours: %s, want [[3]]", got)
	}
}
