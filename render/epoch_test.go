package render_test

import (
	"strings"
	"testing"
)

// Instants kept as seconds since 1970 (Unix time) are common in logs and
// exports: without a reading of them a user's "orders after March" finds
// nothing, or each engine reads the number its own way (PostgreSQL's
// to_timestamp in the session's time zone, SQLite's unixepoch with the
// fraction rounded its own way). FROM_EPOCH_SECONDS must give the same UTC
// timestamp on every engine, to the nearest millisecond (a column of
// milliseconds read as x / 1000 keeps them, as a timestamp stored as text
// does), written alike, and NULL where no engine can hold the year.

var epochCatalog = memCatalog{
	table("ep", []string{"id integer", "sec integer", "f float", "t text"}),
}

var epochRows = map[string][]string{"ep": {
	`1, 1609459200, 1609459200.9, '1609459200'`,
	`2, 0, -1.5, '-1'`,
	`3, 253402300799, 253402300800, 'soon'`,
	`4, NULL, NULL, NULL`,
	`5, -62135596800, 1e20, ' 1000 '`,
}}

// millisCatalog adds the edges of the years a millisecond rounds into,
// and a column of milliseconds beside the timestamp a duration starts at.
var millisCatalog = memCatalog{
	table("ep", []string{"id integer", "sec integer", "f float", "t text", "ms integer", "placed timestamp"}),
}

var millisRows = map[string][]string{"ep": {
	`1, 1609459200, 1609459200.9, '1609459200', 1700000000123, '2023-11-07 10:00:00.5'`,
	`2, 0, -1.5, '-1', -1, '1969-12-31 23:59:59'`,
	`3, 253402300799, 253402300800, 'soon', 1700000000999, '2023-11-14 00:00:00'`,
	`4, NULL, NULL, NULL, NULL, NULL`,
	`5, -62135596800, 1e20, ' 1000 ', 1699999999001, '2023-11-01 12:34:56.789'`,
	`6, 1, 253402300799.9994, '253402300799.9996', 1700000000000, '2023-11-14 22:13:20'`,
	`7, 2, -62135596800.0004, '-62135596800.0006', 1700000000500, '2023-11-14 22:13:19.999'`,
}}

func TestEnginesFromEpochSeconds(t *testing.T) {
	at := func(x string) string {
		return `{"kind":"cast","type":"text","expr":` + call("FROM_EPOCH_SECONDS", x) + `}`
	}
	ep := func(plan string) string {
		return strings.ReplaceAll(plan, `"table":"w","alias":"w"`, `"table":"ep","alias":"ep"`)
	}
	millis := call("FROM_EPOCH_SECONDS", binary("/", column("ms"), num("1000")))
	runEngineCases(t, millisCatalog, millisRows, []engineCase{
		{name: "seconds, fractions and text read as the same UTC instant to the millisecond everywhere",
			plan: ep(wRows(at(column("sec")), at(column("f")), at(column("t")), at(binary("/", column("sec"), num("1000"))))),
			want: [][]string{
				{"1", "2021-01-01 00:00:00", "2021-01-01 00:00:00.9", "2021-01-01 00:00:00", "1970-01-19 15:04:19.2"},
				{"2", "1970-01-01 00:00:00", "1969-12-31 23:59:58.5", "1969-12-31 23:59:59", "1970-01-01 00:00:00"},
				{"3", "9999-12-31 23:59:59", "NULL", "NULL", "1978-01-11 21:31:40.799"},
				{"4", "NULL", "NULL", "NULL", "NULL"},
				{"5", "0001-01-01 00:00:00", "NULL", "1970-01-01 00:16:40", "1968-01-12 20:06:43.2"},
				// rounded to the millisecond: into year 10000 (or year 0) is NULL
				{"6", "1970-01-01 00:00:01", "9999-12-31 23:59:59.999", "NULL", "1970-01-01 00:00:00.001"},
				{"7", "1970-01-01 00:00:02", "0001-01-01 00:00:00", "NULL", "1970-01-01 00:00:00.002"},
			}},
		{name: "a column of milliseconds read as x / 1000 keeps its milliseconds",
			plan: ep(wRows(`{"kind":"cast","type":"text","expr":` + millis + `}`)),
			want: [][]string{{"1", "2023-11-14 22:13:20.123"}, {"2", "1969-12-31 23:59:59.999"}, {"3", "2023-11-14 22:13:20.999"},
				{"4", "NULL"}, {"5", "2023-11-14 22:13:19.001"}, {"6", "2023-11-14 22:13:20"}, {"7", "2023-11-14 22:13:20.5"}}},
		{name: "durations from a column of milliseconds to a timestamp average to the millisecond",
			// the seconds from placed to delivered: 648799.623, 0.999,
			// 80000.999, 1157902.212, 0 and 0.501, where whole seconds
			// gave 648799.5, 0, 80000, 1157902.211, 0 and 0.001 (a mean
			// of 314450.2853…)
			plan: ep(`{"select":[{"expr":` + call("AVG", call("ELAPSED_SECONDS", millis, column("placed"))) + `,"alias":"a"}],"from":[{"table":"w","alias":"w"}]}`),
			want: [][]string{{"314450.72233333334"}}},
	})
}
