package render_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"
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
	infPlan += `],"from":[{"table":"u","alias":"u"}],"where":` + binary("=", column("id"), num("7")) + `}`
	infWant := [][]string{{"7", "NULL", "NULL", "NULL", "NULL", "NULL", "infinity", "infinity", "NULL", "NULL", "NULL", "NULL"}}
	for _, e := range engines(t, cat, map[string][]string{"u": rows}) {
		if got := planRows(t, e, cat, plan); fmt.Sprint(got[:min(len(got), len(want))]) != fmt.Sprint(want) {
			t.Errorf("%s:\ngot  %v\nwant %v", e.d.Name(), got, want)
		}
		if got := planRows(t, e, cat, infPlan); fmt.Sprint(got) != fmt.Sprint(infWant) {
			t.Errorf("%s, infinity: got %v, want %v", e.d.Name(), got, infWant)
		}
	}
}
