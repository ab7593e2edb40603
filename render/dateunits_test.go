package render_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A host asking for the busiest hour or weekday, or counting by week, must
// get the same numbers on every engine: SQLite's %W week and PostgreSQL's
// ISO week differ around New Year (2021-01-03 is week 0 under %W and ISO
// week 53), and a weekday numbered from Monday on one engine and from
// Sunday on another moves every bar of the chart. The expected values come
// from Go's time package (ISOWeek, Weekday, YearDay), not from any engine.

var unitStamps = []string{
	"2021-01-03 10:15:00", // Sunday, ISO week 53 of 2020
	"2024-12-30 23:59:59", // Monday, ISO week 1 of 2025
	"2020-12-31 00:00:00", // Thursday, day 366, ISO week 53
	"2024-03-01 07:30:45", // Friday
	"2023-01-07 12:00:00", // Saturday
}

func TestEnginesDateUnits(t *testing.T) {
	cat := memCatalog{table("u", []string{"id integer", "ts timestamp", "d date"})}
	var rows []string
	var want [][]string
	for i, s := range unitStamps {
		tm, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, fmt.Sprintf("%d, '%s', '%s'", i+1, s, s[:10]))
		_, week := tm.ISOWeek()
		monday := tm.AddDate(0, 0, -((int(tm.Weekday()) + 6) % 7))
		it := strconv.Itoa
		want = append(want, []string{it(i + 1),
			it(week), it(int(tm.Weekday())), it(tm.YearDay()), it(tm.Hour()), it(tm.Minute()),
			it(week), it(int(tm.Weekday())), "0",
			monday.Format(time.DateOnly), monday.Format(time.DateOnly),
			tm.Truncate(time.Hour).Format(time.DateTime), tm.Truncate(time.Minute).Format(time.DateTime)})
	}
	rows = append(rows, "6, NULL, NULL")
	want = append(want, []string{"6", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"})
	part := func(u, x string) string { return call("DATE_PART", str(u), column(x)) }
	trunc := func(u, x string) string { return call("DATE_TRUNC", str(u), column(x)) }
	day := func(x string) string { return call("PERIOD_LABEL", str("day"), x) }
	text := func(x string) string { return `{"kind":"cast","expr":` + x + `,"type":"text"}` }
	plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"}`
	for i, e := range []string{part("week", "ts"), part("dow", "ts"), part("doy", "ts"), part("hour", "ts"), part("minute", "ts"),
		part("week", "d"), part("dow", "d"), part("hour", "d"),
		day(trunc("week", "ts")), day(trunc("week", "d")), text(trunc("hour", "ts")), text(trunc("minute", "ts"))} {
		plan += `,{"expr":` + e + `,"alias":"e` + strconv.Itoa(i) + `"}`
	}
	plan += `],"from":[{"table":"u","alias":"u"}],"order_by":[{"expr":` + column("id") + `}]}`
	// an infinite timestamp has no year, hour, weekday or week anywhere
	// (PostgreSQL's EXTRACT says Infinity for the year, which no integer
	// holds), and
	// truncated to the hour or minute stays infinite
	rows = append(rows, "7, 'infinity', 'infinity'")
	infPlan := `{"select":[{"expr":` + column("id") + `,"alias":"id"}`
	for i, e := range []string{part("week", "ts"), part("dow", "ts"), part("doy", "ts"), part("hour", "ts"), part("minute", "ts"),
		text(trunc("hour", "ts")), text(trunc("minute", "ts")),
		part("year", "ts"), part("quarter", "ts"), part("month", "ts"), part("day", "ts")} {
		infPlan += `,{"expr":` + e + `,"alias":"e` + strconv.Itoa(i) + `"}`
	}
	// and truncated to the day or coarser, a date or a timestamp, stays
	// infinite too (SQLite's date() would say NULL, as would date
	// arithmetic on PostgreSQL)
	for _, u := range []string{"day", "week", "month", "quarter", "year"} {
		infPlan += `,{"expr":` + text(trunc(u, "ts")) + `,"alias":"t` + u + `"},{"expr":` + text(trunc(u, "d")) + `,"alias":"d` + u + `"}`
	}
	for _, u := range []string{"year", "month", "dow", "hour"} {
		infPlan += `,{"expr":` + part(u, "d") + `,"alias":"p` + u + `"}`
	}
	// moved by DATE_ADD it stays itself (SQLite's date() would say NULL),
	// and its quarter's label is 'infinity' as its year's is (DuckDB's
	// quarter of it is NULL)
	add := func(u, x string) string { return call("DATE_ADD", str(u), num("1"), column(x)) }
	for _, x := range []string{"ts", "d"} {
		infPlan += `,{"expr":` + text(add("day", x)) + `,"alias":"aday` + x + `"},{"expr":` + text(add("month", x)) + `,"alias":"amonth` + x + `"}`
		infPlan += `,{"expr":` + call("PERIOD_LABEL", str("quarter"), column(x)) + `,"alias":"q` + x + `"}`
	}
	infPlan += `],"from":[{"table":"u","alias":"u"}],"where":` + binary("=", column("id"), num("7")) + `}`
	infWant := [][]string{{"7", "NULL", "NULL", "NULL", "NULL", "NULL", "infinity", "infinity", "NULL", "NULL", "NULL", "NULL",
		"infinity", "infinity", "infinity", "infinity", "infinity", "infinity", "infinity", "infinity", "infinity", "infinity",
		"NULL", "NULL", "NULL", "NULL", "infinity", "infinity", "infinity", "infinity", "infinity", "infinity"}}
	for _, e := range engines(t, cat, map[string][]string{"u": rows}) {
		if got := planRows(t, e, cat, plan); fmt.Sprint(got[:min(len(got), len(want))]) != fmt.Sprint(want) {
			t.Errorf("%s:\ngot  %v\nwant %v", e.d.Name(), got, want)
		}
		if got := planRows(t, e, cat, infPlan); fmt.Sprint(got) != fmt.Sprint(infWant) {
			t.Errorf("%s, infinity: got %v, want %v", e.d.Name(), got, infWant)
		}
	}
}

// A date after the engines' timestamp range (294247 AD on DuckDB, 294276
// AD on PostgreSQL; dates go on for millions of years) is a value those
// engines store and return: a plan that takes its year or truncates it to
// the month must answer, not fail the whole query with "date out of range
// for timestamp" because of one row. SQLite's date functions stop at
// year 9999 and give NULL there (a known gap, render's doc). Moved by
// DATE_ADD, such a date is NULL on every engine, as any result outside
// years 1 to 9999 is: by months it failed the query, by days it was a
// value SQLite has not.
func TestEnginesFarDates(t *testing.T) {
	cat := memCatalog{table("f", []string{"id integer", "d date"})}
	far := []string{"200000-06-15", "5000000-12-31", "2024-02-29"}
	var rows []string
	for i, s := range far {
		rows = append(rows, fmt.Sprintf("%d, '%s'", i+1, s))
	}
	part := func(u string) string { return call("DATE_PART", str(u), column("d")) }
	trunc := func(u string) string {
		return `{"kind":"cast","expr":` + call("DATE_TRUNC", str(u), column("d")) + `,"type":"text"}`
	}
	plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"}`
	units := []string{"year", "quarter", "month", "week", "day", "doy", "dow", "hour"}
	for _, u := range units {
		plan += `,{"expr":` + part(u) + `,"alias":"p` + u + `"}`
	}
	truncs := []string{"year", "quarter", "month", "week", "day"}
	for _, u := range truncs {
		plan += `,{"expr":` + trunc(u) + `,"alias":"t` + u + `"}`
	}
	plan += `,{"expr":{"kind":"cast","expr":` + call("DATE_ADD", str("day"), num("3"), column("d")) + `,"type":"text"},"alias":"later"}`
	plan += `,{"expr":{"kind":"cast","expr":` + call("DATE_ADD", str("month"), num("-1"), column("d")) + `,"type":"text"},"alias":"before"}`
	plan += `],"from":[{"table":"f","alias":"f"}],"order_by":[{"expr":` + column("id") + `}]}`
	var want [][]string
	it := strconv.Itoa
	for i, s := range far {
		dash := strings.LastIndex(s[:len(s)-3], "-")
		y, _ := strconv.Atoi(s[:dash])
		m, _ := strconv.Atoi(s[dash+1 : dash+3])
		day, _ := strconv.Atoi(s[dash+4:])
		tm := time.Date(y, time.Month(m), day, 0, 0, 0, 0, time.UTC)
		_, week := tm.ISOWeek()
		q := (m-1)/3 + 1
		date := func(t time.Time) string {
			return fmt.Sprintf("%04d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
		}
		want = append(want, []string{it(i + 1), it(y), it(q), it(m), it(week), it(day), it(tm.YearDay()), it(int(tm.Weekday())), "0",
			date(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)), date(time.Date(y, time.Month(q*3-2), 1, 0, 0, 0, 0, time.UTC)),
			date(time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)), date(tm.AddDate(0, 0, -((int(tm.Weekday()) + 6) % 7))), s, "NULL", "NULL"})
		if y <= 9999 {
			want[i][len(want[i])-2], want[i][len(want[i])-1] = date(tm.AddDate(0, 0, 3)), date(time.Date(y, time.Month(m)-1, day, 0, 0, 0, 0, time.UTC))
		}
	}
	for _, e := range engines(t, cat, map[string][]string{"f": rows}) {
		got := planRows(t, e, cat, plan)
		w := want
		if e.d.Name() == "sqlite" {
			// past year 9999 SQLite's date functions give NULL
			w = [][]string{nullsBut(want[0], 0), nullsBut(want[1], 0), want[2]}
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s:\ngot  %v\nwant %v", e.d.Name(), got, w)
		}
	}
}

// nullsBut is row with every cell NULL but those at keep.
func nullsBut(row []string, keep ...int) []string {
	out := make([]string, len(row))
	for i := range out {
		out[i] = "NULL"
	}
	for _, k := range keep {
		out[k] = row[k]
	}
	return out
}

// A host shifting a time by a day, a month or a year must keep its time
// of day on every engine: a date in its place made "a day after
// 23:59:59" one second later and the column a date. A month from the
// 31st lands on the next month's last day as on PostgreSQL (2024-01-31 is
// followed by 2024-02-29, not March 2); a result outside years 1 to 9999
// is NULL everywhere, not a value on one engine, a NULL on SQLite and a
// failed query on PostgreSQL; so is a date's (9999-12-28 plus ten days
// was 10000-01-07 on PostgreSQL and DuckDB), and an amount past 32 bits
// fails no query. The expected values come from Go's time package.
func TestEnginesDateAddKeepsTheTimeOfDay(t *testing.T) {
	cat := memCatalog{table("a", []string{"id integer", "ts timestamp", "n integer", "d date"})}
	cases := []struct {
		ts string
		n  int
	}{
		{"2024-12-31 23:59:59", 1},
		{"2024-01-31 10:15:00", 1},
		{"2024-02-29 12:00:00", 1},
		{"2024-03-31 08:00:00", -1},
		{"2024-11-30 06:30:00", 1},
		{"2024-06-15 10:00:00.5", 1},
		{"2000-02-29 00:00:00", 4},
		{"2024-05-31 13:00:00", -3},
		{"9999-12-31 00:00:00", -1},
		{"9999-12-31 23:59:59", 1},   // past 9999 in every unit
		{"9999-10-31 12:00:00", 1},   // a month stays in 9999, a quarter or a year does not
		{"0001-01-01 00:00:00", -1},  // before year 1
		{"2024-05-31 13:00:00", 3e9}, // far past any timestamp
		{"9999-12-28 10:00:00", 10},  // a date ten days on is past 9999
		{"0001-01-03 10:00:00", -10}, // and ten days back before year 1
		{"2024-05-31 13:00:00", 1 << 32},
		{"2024-05-31 13:00:00", -1<<32 - 1},
		{"2024-05-31 13:00:00", 1<<63 - 1}, // its months pass int64
	}
	units := []string{"day", "month", "quarter", "year"}
	// shift moves tm by n units, a missing day clamped to the month's last
	shift := func(tm time.Time, unit string, n int) (time.Time, bool) {
		if n > 4e6 || n < -4e6 { // past years 1 to 9999 in any unit
			return time.Time{}, false
		}
		if unit == "day" {
			tm = tm.AddDate(0, 0, n)
		} else {
			months := n * map[string]int{"month": 1, "quarter": 3, "year": 12}[unit]
			if months > 2e5 || months < -2e5 {
				return time.Time{}, false
			}
			first := time.Date(tm.Year(), tm.Month()+time.Month(months), 1, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
			lastDay := first.AddDate(0, 1, -1).Day()
			tm = first.AddDate(0, 0, min(tm.Day(), lastDay)-1)
		}
		return tm, tm.Year() >= 1 && tm.Year() <= 9999
	}
	text := func(x string) string { return `{"kind":"cast","expr":` + x + `,"type":"text"}` }
	plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"}`
	for _, u := range units {
		plan += `,{"expr":` + text(call("DATE_ADD", str(u), column("n"), column("ts"))) + `,"alias":"t` + u + `"}`
	}
	// a date stays a date, NULL outside years 1 to 9999 on every engine
	for _, u := range units {
		plan += `,{"expr":` + text(call("DATE_ADD", str(u), column("n"), column("d"))) + `,"alias":"d` + u + `"}`
	}
	plan += `],"from":[{"table":"a","alias":"a"}],"order_by":[{"expr":` + column("id") + `}]}`
	var rows []string
	var want [][]string
	for i, c := range cases {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", c.ts)
		if err != nil {
			t.Fatal(err)
		}
		row := []string{strconv.Itoa(i + 1)}
		for _, u := range units {
			if r, ok := shift(tm, u, c.n); ok {
				row = append(row, r.Format("2006-01-02 15:04:05.999999"))
			} else {
				row = append(row, "NULL")
			}
		}
		day := tm.Truncate(24 * time.Hour)
		for _, u := range units {
			if r, ok := shift(day, u, c.n); ok {
				row = append(row, r.Format(time.DateOnly))
			} else {
				row = append(row, "NULL")
			}
		}
		rows = append(rows, fmt.Sprintf("%d, '%s', %d, '%s'", i+1, c.ts, c.n, c.ts[:10]))
		want = append(want, row)
	}
	rows = append(rows, fmt.Sprintf("%d, NULL, 1, NULL", len(cases)+1))
	want = append(want, []string{strconv.Itoa(len(cases) + 1), "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"})
	for _, e := range engines(t, cat, map[string][]string{"a": rows}) {
		got := planRows(t, e, cat, plan)
		for i := range max(len(got), len(want)) {
			var g, w []string
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("%s, %v:\ngot  %v\nwant %v", e.d.Name(), cases[min(i, len(cases)-1)], g, w)
			}
		}
	}
	// and the column is a timestamp, as the host reads column_types
	q, err := planast.Decode([]byte(`{"select":[{"expr":`+call("DATE_ADD", str("day"), num("1"), column("ts"))+`,"alias":"next"},{"expr":`+call("DATE_ADD", str("day"), num("1"), column("d"))+`,"alias":"day"}],"from":[{"table":"a","alias":"a"}]}`), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(v.Types) != "[timestamp date]" {
		t.Errorf("types %v, want [timestamp date]", v.Types)
	}
}
