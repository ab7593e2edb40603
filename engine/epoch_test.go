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
// June" silently drops them; and a text column of seconds cast to a
// timestamp loses all of them. The warning must say how to read them too,
// and the reading it names must run and count them.
func TestUnixTimesReadByTheWarningsReading(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE staff (id INTEGER PRIMARY KEY, hired_at DATETIME, joined TEXT)",
		"INSERT INTO staff VALUES (1, 1609459200, '1609459200'), (2, '2021-03-01 08:00:00', '2021-03-01 08:00:00'), (3, '2021-09-01 00:00:00', '2021-09-01 00:00:00')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	before := func(x string) (string, []string) {
		t.Helper()
		p := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"staff","alias":"s"}],` +
			`"where":{"kind":"binary","op":"<","left":` + x + `,"right":{"kind":"literal","type":"date","value":"2021-06-01"}}}`
		res, err := e.RunPlan(ctx, "air", []byte(p))
		if err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		return fmt.Sprint(res.Rows[0][0]), res.Warnings
	}
	col := func(c string) string { return `{"kind":"column","table":"s","column":"` + c + `"}` }
	asText := func(x string) string { return `{"kind":"cast","type":"text","expr":` + x + `}` }
	epoch := func(x string) string { return `{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[` + x + `]}` }
	coalesce := func(a, b string) string { return `{"kind":"func","name":"COALESCE","args":[` + a + `,` + b + `]}` }

	n, warns := before(col("hired_at"))
	w := warningWith(warns, `"hired_at" holds`)
	if n != "1" || !strings.Contains(w, "COALESCE(hired_at, FROM_EPOCH_SECONDS(CAST(hired_at AS text)))") {
		t.Errorf("hired before June = %s with warnings %q; want 1 and a warning naming the Unix-time reading", n, warns)
	}
	if n, warns := before(coalesce(col("hired_at"), epoch(asText(col("hired_at"))))); n != "2" || warningWith(warns, `"hired_at" holds`) != "" {
		t.Errorf("the warning's reading counts %s hired before June with warnings %q, want 2 (2021-01-01 and 2021-03-01) and no repeat of the warning it followed", n, warns)
	}

	n, warns = before(`{"kind":"cast","type":"timestamp","expr":` + col("joined") + `}`)
	w = warningWith(warns, `"joined" holds`)
	if n != "1" || !strings.Contains(w, "COALESCE(CAST(joined AS timestamp), FROM_EPOCH_SECONDS(joined))") {
		t.Errorf("joined before June = %s with warnings %q; want 1 and a warning naming the Unix-time reading", n, warns)
	}
	if n, _ := before(coalesce(`{"kind":"cast","type":"timestamp","expr":`+col("joined")+`}`, epoch(col("joined")))); n != "2" {
		t.Errorf("the warning's reading counts %s joined before June, want 2", n)
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

// Threat: DATE_ADD of a timestamp gives a date on every engine, so "the
// seconds from a time to one day later" was 1 for 23:59:59, not 86,400,
// with nothing to say why. The result says the time is dropped.
func TestDateAddOfATimestampSaysTheTimeIsDropped(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME)", "INSERT INTO ev VALUES (1, '2024-12-31 23:59:59')")
	e := airEngine(t, db, nil)
	at := `{"kind":"column","table":"e","column":"at"}`
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":1},`+at+`]},"alias":"next"}],"from":[{"table":"ev","alias":"e"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if warningWith(res.Warnings, "DATE_ADD of a timestamp gives a date") == "" {
		t.Errorf("warnings %q: want the dropped time of day named", res.Warnings)
	}
}
