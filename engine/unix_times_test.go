package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// unixDatetimeDB is a SQLite DATETIME column a loader filled partly with
// ISO text and partly with time()'s Unix seconds: 1711929600 is
// 2024-04-01 00:00:00, the only event of April.
var unixDatetimeDB = []string{
	"CREATE TABLE events (id INTEGER PRIMARY KEY, happened_at DATETIME)",
	"INSERT INTO events VALUES (1, '2024-01-01 10:00:00'), (2, 1706745600), (3, '2024-03-01 08:30:00'), (4, 1711929600), (5, '2024-05-01'), (6, NULL)",
}

// Threat: "how many events in April?" compared the column's text with
// '2024-04%' and answered 0, with no word, although an event of 1 April
// is stored as 1711929600; a range on the text dropped it the same way.
// The result must say how many Unix times the column holds, name them as
// the likely cause of the empty result, and give a reading (plan JSON)
// that, compared with dates, counts them.
func TestTextComparisonOfUnixTimesInADatetimeColumnIsWarned(t *testing.T) {
	e := airEngine(t, sourcetest.TempDB(t, unixDatetimeDB...), nil)
	at := `{"kind":"column","table":"e","column":"happened_at"}`
	asText := `{"kind":"cast","type":"text","expr":` + at + `}`
	count := func(where string) *Result {
		return runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"events","alias":"e"}],"where":`+where+`}`)
	}
	for _, c := range []struct {
		name, where string
		empty       bool
	}{
		{"like", `{"kind":"like","expr":` + asText + `,"pattern":{"kind":"literal","value":"2024-04%"}}`, true},
		{"in", `{"kind":"in","expr":` + asText + `,"list":[{"kind":"literal","value":"2024-04-01 00:00:00"}]}`, true},
		{"range", `{"kind":"binary","op":">=","left":` + asText + `,"right":{"kind":"literal","value":"2024-04-01"}}`, false},
		{"between", `{"kind":"between","expr":` + asText + `,"low":{"kind":"literal","value":"2024-02-01"},"high":{"kind":"literal","value":"2024-04-30"}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := count(c.where)
			w := warningWith(res.Warnings, "2 Unix times in seconds")
			if w == "" || !strings.Contains(w, "2024-02-01 to 2024-04-01") {
				t.Fatalf("warnings %q: want the 2 Unix times of the column named, with their dates", res.Warnings)
			}
			if got := strings.HasPrefix(w, "no rows matched"); got != c.empty {
				t.Errorf("warning %q: said as the likely cause of an empty result = %v, want %v", w, got, c.empty)
			}
			_, reading, ok := strings.Cut(w, "read the column as ")
			reading, _, ok2 := strings.Cut(reading, " and compare it with a date literal")
			if !ok || !ok2 {
				t.Fatalf("warning %q names no reading", w)
			}
			april := count(`{"kind":"between","expr":` + reading + `,"low":{"kind":"literal","type":"date","value":"2024-04-01"},"high":{"kind":"literal","type":"date","value":"2024-04-30"}}`)
			if n := fmt.Sprint(april.Rows[0][0]); n != "1" {
				t.Errorf("the warning's reading counts %s events in April, want 1 (1711929600)", n)
			}
		})
	}
	// an empty result beyond the range of its dates is told the range
	// leaves its Unix times out, not that the data ends there
	res := count(`{"kind":"binary","op":">=","left":` + at + `,"right":{"kind":"literal","type":"date","value":"2024-06-01"}}`)
	if w := warningWith(res.Warnings, "outside the column's profiled range"); !strings.Contains(w, "leaves out the 2 Unix seconds it stores as numbers (2024-02-01 to 2024-04-01") {
		t.Errorf("warnings %q: want the range said to leave out the 2 Unix times", res.Warnings)
	}
}

// Threat: a planner shown happened_at's range 2024-01-01..2024-05-01 and
// nothing else took it for every date the column holds, and read or
// compared it as text; the two Unix times it also stores were missed.
// The schema context (ask) must say how many
// it holds, their dates, and that the range leaves them out.
func TestSchemaContextNamesUnixTimesInADatetimeColumn(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, unixDatetimeDB...), RowLimit: 1000})
	want := "(2 values are Unix seconds, 2024-02-01 to 2024-04-01, outside the range and read as NULL; to count them read COALESCE(x, FROM_EPOCH_SECONDS(CAST(x AS text))))"
	res, err := e.Ask(context.Background(), AskRequest{Question: "How many events happened in April 2024?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if !strings.Contains(res.HostPlan.SchemaContext, want) {
		t.Errorf("context %q: want %q", res.HostPlan.SchemaContext, want)
	}
	// describe_schema's text writes the same note (tools: TestSnapshotTextNamesUnixTimes)
	snap := airSnapshot(t, e)
	if tb, ok := snap.Lookup("", "events"); !ok || tb.Columns[1].Profile.Numbers == nil || tb.Columns[1].Profile.Numbers.Count != 2 {
		t.Errorf("profile of happened_at: want its 2 stored numbers counted")
	}
}

// Threat: a DATETIME column holding nothing but Unix seconds has no date
// range, so its line said nothing of them, and the plan read every value
// as NULL (0 rows where 8 were). The note stands without a range.
func TestSchemaContextNamesADatetimeColumnOfUnixTimesAlone(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t,
		"CREATE TABLE subs (id INTEGER PRIMARY KEY, started_at DATETIME)", "INSERT INTO subs VALUES (1, 1706745600), (2, 1711929600), (3, 1717200000)"), RowLimit: 1000})
	want := "(3 values are Unix seconds, 2024-02-01 to 2024-06-01, read as NULL; to count them read COALESCE(x, FROM_EPOCH_SECONDS(CAST(x AS text))))"
	res, err := e.Ask(context.Background(), AskRequest{Question: "How many subscriptions started in April 2024?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if !strings.Contains(res.HostPlan.SchemaContext, want) {
		t.Errorf("context %q: want %q", res.HostPlan.SchemaContext, want)
	}
}

// Threat: FROM_EPOCH_SECONDS(created_at / 1000) of a column of Unix
// seconds (or of milliseconds divided by 1000000) put every date in
// January 1970, and FROM_EPOCH_SECONDS(id) every row on 1970-01-01: rows
// that look like dates, with no word. The result must name the unit the
// column holds and the expression that reads it, on every engine; the
// right readings are told nothing.
func TestFromEpochSecondsInTheWrongUnitIsWarned(t *testing.T) {
	db := []string{
		"CREATE TABLE ev (id INTEGER PRIMARY KEY, created_at BIGINT, updated_ms BIGINT)",
		"INSERT INTO ev VALUES (1, 1704067200, 1704067200123), (2, 1735689599, 1735689599999), (3, 1719792000, 1719792000000)",
	}
	col := func(c string) string { return `{"kind":"column","table":"e","column":"` + c + `"}` }
	div := func(c string, d int) string {
		return fmt.Sprintf(`{"kind":"binary","op":"/","left":%s,"right":{"kind":"literal","value":%d}}`, col(c), d)
	}
	for _, eng := range everyEngine(db) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, c := range []struct{ arg, want string }{
				{div("created_at", 1000), "it holds Unix seconds (2024-01-01 to 2024-12-31), so it reads them as 1970-01-20"},
				{div("updated_ms", 1000000), "read them as FROM_EPOCH_SECONDS(updated_ms / 1000)"},
				{col("id"), "FROM_EPOCH_SECONDS(id) puts every value in 1970"},
				{div("updated_ms", 1000), ""},
				{col("created_at"), ""},
			} {
				res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"MIN","args":[{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[`+c.arg+`]}]},"alias":"first"}],"from":[{"table":"ev","alias":"e"}]}`)
				w := warningWith(res.Warnings, "FROM_EPOCH_SECONDS(")
				if c.want == "" && w != "" || c.want != "" && !strings.Contains(w, c.want) {
					t.Errorf("FROM_EPOCH_SECONDS(%s): warnings %q, want one with %q", c.arg, res.Warnings, c.want)
				}
			}
		})
	}
}

// Threat: FROM_EPOCH_SECONDS of a text column none of whose values holds
// a number gave NULL on every row with no word, while the literal 'abc'
// is refused. The result must say how many values were read as NULL and
// show one, as a cast of text that loses values does, on every engine.
func TestFromEpochSecondsOfTextWithoutNumbersIsWarned(t *testing.T) {
	db := []string{
		"CREATE TABLE ev (id INTEGER PRIMARY KEY, title TEXT)",
		"INSERT INTO ev VALUES (1, 'Café opening'), (2, 'Meetup'), (3, 'Tapas'), (4, NULL)",
	}
	for _, eng := range everyEngine(db) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[{"kind":"column","table":"e","column":"title"}]},"alias":"at"}],"from":[{"table":"ev","alias":"e"}]}`)
			w := warningWith(res.Warnings, `"title" holds`)
			if !strings.Contains(w, `3 values that are not numbers (such as "Café opening")`) || !strings.Contains(w, "FROM_EPOCH_SECONDS read them as NULL") {
				t.Errorf("warnings %q: want the 3 titles FROM_EPOCH_SECONDS read as NULL counted, with one of them", res.Warnings)
			}
		})
	}
}

// readingAfter is the plan JSON that follows marker in warning w, "" when
// there is none.
func readingAfter(w, marker string) string {
	_, rest, ok := strings.Cut(w, marker)
	if !ok {
		return ""
	}
	var raw json.RawMessage
	if err := json.NewDecoder(strings.NewReader(rest)).Decode(&raw); err != nil {
		return ""
	}
	return string(raw)
}

// Threat: a DATETIME column a loader filled with Unix milliseconds beside
// ISO text lost those rows to NULL, and a reading that took the
// milliseconds for seconds (or divided text) put them past year 9999 or
// nowhere. Every warning on the column must give the one reading, and it
// must read each stored value as its own timestamp (to the millisecond).
func TestMillisecondsInADatetimeColumnReadByTheWarningsReading(t *testing.T) {
	e := airEngine(t, sourcetest.TempDB(t,
		"CREATE TABLE events (id INTEGER PRIMARY KEY, happened_at DATETIME)",
		"INSERT INTO events VALUES (1, '2024-01-01 10:00:00'), (2, 1706745600000), (3, 1711929600999), (4, '2024-05-01'), (5, NULL)"), nil)
	at := `{"kind":"column","table":"e","column":"happened_at"}`
	plan := func(sel, where string) string {
		return `{"select":[{"expr":{"kind":"column","table":"e","column":"id"},"alias":"id"},{"expr":` + sel + `,"alias":"at"}],"from":[{"table":"events","alias":"e"}]` + where + `}`
	}
	readAs := runAir(t, e, plan(at, `,"where":{"kind":"binary","op":"<","left":`+at+`,"right":{"kind":"literal","type":"date","value":"2024-06-01"}}`))
	text := `{"kind":"cast","type":"text","expr":` + at + `}`
	asText := runAir(t, e, plan(text, `,"where":{"kind":"like","expr":`+text+`,"pattern":{"kind":"literal","value":"2024-04%"}}`))
	for _, c := range []struct {
		name, warning string
		warnings      []string
	}{
		{"read as its type", `"happened_at" holds`, readAs.Warnings},
		{"compared as text", "is compared as text", asText.Warnings},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := warningWith(c.warnings, c.warning)
			if !strings.Contains(w, "milliseconds") {
				t.Fatalf("warnings %q: want the milliseconds named", c.warnings)
			}
			reading := readingAfter(w, "read the column as ")
			if reading == "" {
				t.Fatalf("warning %q gives no reading", w)
			}
			res := runAir(t, e, plan(reading, ""))
			want := "[[1 2024-01-01 10:00:00] [2 2024-02-01 00:00:00] [3 2024-04-01 00:00:00.999] [4 2024-05-01 00:00:00] [5 <nil>]]"
			if got := fmt.Sprint(res.Rows); got != want {
				t.Errorf("the warning's reading %s reads %s, want %s", reading, got, want)
			}
		})
	}
}

// Threat: the host context's newest date ("today" for "last quarter")
// was the newest ISO date of a DATETIME column, while the column also
// stores later events as Unix times (or stores nothing but them): the
// host answered "recently" as of months too early, or had no date. The
// newest date must count them, and still none after today.
func TestNewestDateCountsUnixTimesInADatetimeColumn(t *testing.T) {
	for _, c := range []struct {
		name, insert, want string
	}{
		{"beside dates", "INSERT INTO events VALUES (1, '2024-01-01 10:00:00'), (2, 1735689600), (3, '2024-05-01 00:00:00')", "2025-01-01 00:00:00 in events.happened_at"},
		{"milliseconds alone", "INSERT INTO events VALUES (1, 1735776000000), (2, 1704067200000)", "2025-01-02 00:00:00 in events.happened_at"},
		{"after today", "INSERT INTO events VALUES (1, '2024-05-01 00:00:00'), (2, 1893456000)", "2024-05-01 00:00:00 in events.happened_at"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := sourcetest.TempDB(t, "CREATE TABLE events (id INTEGER PRIMARY KEY, happened_at DATETIME)", c.insert)
			e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: db, RowLimit: 1000})
			res, err := e.Ask(context.Background(), AskRequest{Question: "How many events happened last month?"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			if got := res.HostPlan.Newest; got != c.want {
				t.Errorf("newest %q, want %q", got, c.want)
			}
		})
	}
}

// Threat: a TEXT column of ISO dates and Unix seconds ('1711929600' for
// 1 April) compared as text with '2024-04%' answered 0 events in April,
// and the warning called the numbers dates in other forms with no
// reading of them: the host could not count them. On every engine the
// warning must name them Unix times and give the reading that, compared
// with dates, counts them.
func TestTextComparisonOfUnixTimesInATextColumnIsWarned(t *testing.T) {
	db := []string{
		"CREATE TABLE events (id INTEGER PRIMARY KEY, happened_at TEXT)",
		"INSERT INTO events VALUES (1, '2024-01-01 10:00:00'), (2, '1706745600'), (3, '2024-03-01 08:30:00'), (4, '1711929600'), (5, '2024-05-01'), (6, '2024-07-01 00:00:00'), (7, NULL)",
	}
	for _, eng := range everyEngine(db) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			count := func(where string) string {
				res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"events","alias":"e"}],"where":`+where+`}`)
				if len(res.Rows) != 1 {
					t.Fatalf("rows %v", res.Rows)
				}
				w := warningWith(res.Warnings, "is compared as text")
				if strings.HasPrefix(where, `{"kind":"like"`) && !strings.Contains(w, "which reads as a Unix time in seconds: 2024-02-01 00:00:00") {
					t.Errorf("warnings %q: want the numbers named Unix times", res.Warnings)
				}
				return fmt.Sprint(res.Rows[0][0]) + readingAfter(w, "read the column as ")
			}
			got := count(`{"kind":"like","expr":{"kind":"column","table":"e","column":"happened_at"},"pattern":{"kind":"literal","value":"2024-04%"}}`)
			n, reading := got[:1], got[1:]
			if n != "0" || reading == "" {
				t.Fatalf("April by text: %s events, reading %q; want 0 and a reading", n, reading)
			}
			if n := count(`{"kind":"between","expr":` + reading + `,"low":{"kind":"literal","type":"date","value":"2024-04-01"},"high":{"kind":"literal","type":"date","value":"2024-04-30"}}`); n != "1" {
				t.Errorf("the warning's reading %s counts %s events in April, want 1 (1711929600)", reading, n)
			}
		})
	}
}
