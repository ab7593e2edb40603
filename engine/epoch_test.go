package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a DATETIME column that a loader filled partly with Unix times
// (time() gives 1609459200) reads those rows as NULL, so "hired before
// June" silently drops them; and a text column of seconds (or of
// milliseconds) cast to a timestamp loses all of them, on every engine.
// The warning must say how to read them too, as plan JSON, and the
// reading it gives must run and count them.
func TestUnixTimesReadByTheWarningsReading(t *testing.T) {
	before := func(e *Engine, table, x string) (string, []string) {
		t.Helper()
		res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"`+table+`","alias":"s"}],`+
			`"where":{"kind":"binary","op":"<","left":`+x+`,"right":{"kind":"literal","type":"date","value":"2021-06-01"}}}`)
		return fmt.Sprint(res.Rows[0][0]), res.Warnings
	}
	col := func(c string) string { return `{"kind":"column","table":"s","column":"` + c + `"}` }

	e := airEngine(t, sourcetest.TempDB(t,
		"CREATE TABLE staff (id INTEGER PRIMARY KEY, hired_at DATETIME)",
		"INSERT INTO staff VALUES (1, 1609459200), (2, '2021-03-01 08:00:00'), (3, '2021-09-01 00:00:00')"), nil)
	n, warns := before(e, "staff", col("hired_at"))
	w := warningWith(warns, `"hired_at" holds`)
	reading := readingAfter(w, "read the column as ")
	if n != "1" || reading == "" || !strings.Contains(w, "1 of them is a number that reads as Unix seconds (2021-01-01)") {
		t.Fatalf("hired before June = %s with warnings %q; want 1 and a warning giving the Unix-time reading as plan JSON", n, warns)
	}
	if n, warns := before(e, "staff", reading); n != "2" || warningWith(warns, `"hired_at" holds`) != "" {
		t.Errorf("the warning's reading %s counts %s hired before June with warnings %q, want 2 (2021-01-01 and 2021-03-01) and no repeat of the warning it followed", reading, n, warns)
	}

	// the refusal of FROM_EPOCH_SECONDS of the column hints the same reading
	_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[`+col("hired_at")+`]},"alias":"at"}],"from":[{"table":"staff","alias":"s"}]}`))
	if err == nil || readingAfter(err.Error(), "read them and its dates alike as ") != reading {
		t.Errorf("FROM_EPOCH_SECONDS(hired_at): error %v, want its hint to give the reading %s", err, reading)
	}

	text := []string{
		"CREATE TABLE joins (id INTEGER PRIMARY KEY, joined TEXT, joined_ms TEXT, left_on TEXT)",
		"INSERT INTO joins VALUES (1, '1609459200', '1609459200000', 'n/a'), (2, '2021-03-01 08:00:00', '2021-03-01 08:00:00', '2021-03-01 08:00:00'), (3, '2021-09-01 00:00:00', '2021-09-01 00:00:00', '2021-09-01 00:00:00')",
	}
	for _, eng := range everyEngine(text) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, c := range []string{"joined", "joined_ms"} {
				n, warns := before(e, "joins", `{"kind":"cast","type":"timestamp","expr":`+col(c)+`}`)
				w := warningWith(warns, `"`+c+`" holds`)
				reading := readingAfter(w, "read them too as ")
				if n != "1" || reading == "" {
					t.Fatalf("%s before June = %s with warnings %q; want 1 and a warning giving the Unix-time reading as plan JSON", c, n, warns)
				}
				if n, _ := before(e, "joins", reading); n != "2" {
					t.Errorf("the warning's reading %s counts %s joined before June, want 2", reading, n)
				}
			}
			// a value that is no number is told no Unix time
			_, warns := before(e, "joins", `{"kind":"cast","type":"timestamp","expr":`+col("left_on")+`}`)
			if w := warningWith(warns, `"left_on" holds`); w == "" || strings.Contains(w, "Unix") {
				t.Errorf("warnings %q: want the value 'n/a' counted, with no Unix-time reading", warns)
			}
		})
	}
}

// Threat: Unix times in milliseconds (13 digits, common in exports) read
// by FROM_EPOCH_SECONDS are past year 9999 as seconds: every one came
// back NULL with no sign of why. The result must say so and name the
// division that reads them.
func TestMillisecondsReadAsSecondsAreWarned(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE events (id INTEGER PRIMARY KEY, ts_ms INTEGER)",
		"INSERT INTO events VALUES (1, 1717418460000), (2, 1717500000000), (3, 1720000000123)")
	e := airEngine(t, db, nil)
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[{"kind":"column","table":"e","column":"ts_ms"}]},"alias":"t"}],"from":[{"table":"events","alias":"e"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "FROM_EPOCH_SECONDS(ts_ms)"); !strings.Contains(w, "milliseconds") || !strings.Contains(w, "FROM_EPOCH_SECONDS(ts_ms / 1000)") {
		t.Errorf("warnings %q: want one naming milliseconds and FROM_EPOCH_SECONDS(ts_ms / 1000)", res.Warnings)
	}
}

// Threat: the host's context showed started_at as a bare integer range;
// the planner could not tell it holds times, nor which dates. The
// context must say it reads as Unix seconds and give the dates.
func TestHostContextNamesUnixSecondsColumns(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE trips (id INTEGER PRIMARY KEY, started_at INTEGER, km REAL)",
		"INSERT INTO trips VALUES (1, 1696122010, 5), (2, 1722003355, 7)")
	e := specEngine(t, DatasourceSpec{ID: "fleet", Engine: "sqlite", Path: db, RowLimit: 1000})
	res, err := e.Ask(context.Background(), AskRequest{Question: "How many trips started in 2024?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if !strings.Contains(res.HostPlan.SchemaContext, "(Unix seconds? FROM_EPOCH_SECONDS: 2023-10-01 to 2024-07-26)") {
		t.Errorf("context %q: want started_at read as Unix seconds with its dates", res.HostPlan.SchemaContext)
	}
	// and the data's newest date is theirs: "last quarter" is read from it
	if got := res.HostPlan.Newest; got != "2024-07-26 14:15:55 in trips.started_at" {
		t.Errorf("newest %q, want the latest Unix time as a date", got)
	}
}

// Threat: DATE_ADD of a timestamp gave a date on every engine, so "the
// seconds from a time to one day later" was 1 for 23:59:59, not 86,400,
// and the column read as a date. It keeps the time of day, is typed a
// timestamp, and no warning says otherwise.
func TestDateAddOfATimestampKeepsTheTimeOfDay(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME)", "INSERT INTO ev VALUES (1, '2024-12-31 23:59:59')")
	e := airEngine(t, db, nil)
	at := `{"kind":"column","table":"e","column":"at"}`
	next := `{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":1},` + at + `]}`
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":`+next+`,"alias":"next"},`+
		`{"expr":{"kind":"func","name":"ELAPSED_SECONDS","args":[`+next+`,`+at+`]},"alias":"secs"}],"from":[{"table":"ev","alias":"e"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows, res.ColumnTypes); got != "[[2025-01-01 23:59:59 86400]] [timestamp float]" {
		t.Errorf("rows and types %s, want the time kept and one day of seconds", got)
	}
	if w := warningWith(res.Warnings, "DATE_ADD"); w != "" {
		t.Errorf("warning %q about a time that is kept", w)
	}
}

// Threat: DATE_ADD of text holding timestamps ('2024-04-09T07:06:00Z')
// read it as a date, so "tickets closed within a day of opening" counted
// one closed at 23:00 the next day (23 counted where 15
// were). Text reads as a timestamp there, as a timestamp column does: the
// time of day is kept, and text holding only a date is its midnight.
func TestDateAddOfTextKeepsTheTimeOfDay(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE tickets (id INTEGER PRIMARY KEY, opened_at TEXT, closed_at TEXT)",
		"INSERT INTO tickets VALUES (1, '2024-04-09T07:06:00Z', '2024-04-10T06:00:00Z'), (2, '2024-04-09T07:06:00Z', '2024-04-10T23:00:00Z'), (3, '2024-04-09', '2024-04-10')")
	e := airEngine(t, db, nil)
	col := func(c string) string { return `{"kind":"column","table":"t","column":"` + c + `"}` }
	next := `{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":1},` + col("opened_at") + `]}`
	res := runAir(t, e, `{"select":[{"expr":`+col("id")+`,"alias":"id"},{"expr":`+next+`,"alias":"next"}],"from":[{"table":"tickets","alias":"t"}],"order_by":[{"expr":`+col("id")+`}]}`)
	if got := fmt.Sprint(res.Rows, res.ColumnTypes); got != "[[1 2024-04-10 07:06:00] [2 2024-04-10 07:06:00] [3 2024-04-10 00:00:00]] [integer timestamp]" {
		t.Errorf("rows and types %s, want each opening a day later to the second", got)
	}
	within := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"tickets","alias":"t"}],`+
		`"where":{"kind":"binary","op":"<=","left":{"kind":"cast","type":"timestamp","expr":`+col("closed_at")+`},"right":`+next+`}}`)
	if fmt.Sprint(within.Rows) != "[[2]]" {
		t.Errorf("closed within a day: %v, want 2 (not the one closed at 23:00 the next day)", within.Rows)
	}
}
