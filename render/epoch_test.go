package render_test

import (
	"strings"
	"testing"
)

// Instants kept as seconds since 1970 (Unix time) are common in logs and
// exports: without a reading of them a user's "orders after March" finds
// nothing, or each engine reads the number its own way (PostgreSQL's
// to_timestamp in the session's time zone, SQLite's unixepoch with the
// fraction kept). FROM_EPOCH_SECONDS must give the same UTC timestamp on
// every engine, to the whole second towards the past, and NULL where no
// engine can hold the year.

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

func TestEnginesFromEpochSeconds(t *testing.T) {
	at := func(x string) string {
		return `{"kind":"cast","type":"text","expr":` + call("FROM_EPOCH_SECONDS", x) + `}`
	}
	runEngineCases(t, epochCatalog, epochRows, []engineCase{
		{name: "seconds, fractions and text read as the same UTC second everywhere",
			plan: strings.ReplaceAll(wRows(at(column("sec")), at(column("f")), at(column("t")), at(binary("/", column("sec"), num("1000")))), `"table":"w","alias":"w"`, `"table":"ep","alias":"ep"`),
			want: [][]string{
				{"1", "2021-01-01 00:00:00", "2021-01-01 00:00:00", "2021-01-01 00:00:00", "1970-01-19 15:04:19"},
				{"2", "1970-01-01 00:00:00", "1969-12-31 23:59:58", "1969-12-31 23:59:59", "1970-01-01 00:00:00"},
				{"3", "9999-12-31 23:59:59", "NULL", "NULL", "1978-01-11 21:31:40"},
				{"4", "NULL", "NULL", "NULL", "NULL"},
				{"5", "0001-01-01 00:00:00", "NULL", "1970-01-01 00:16:40", "1968-01-12 20:06:43"},
			}},
	})
}
