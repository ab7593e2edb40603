package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a SQLite DATE or DATETIME column holds, beside ISO text, a date
// written '15/01/2024' (the latest purchase) and Unix times. Read as its
// type the column reads that date as NULL, its range ends in 2023, and
// MAX(purchased) answered 2023-07-07 with no word of a later date: the
// planners' context must say how many values the range leaves out, with
// one of them, beside the Unix times it names and without naming them
// twice; and the run's warning must give the reading that, pasted back,
// makes MAX the true latest and earns no warning of the column. Only
// SQLite stores a value its column's type cannot read.
func TestDatesWrittenOtherwiseInADateColumnAreNamedAndRead(t *testing.T) {
	for _, c := range []struct {
		name, create, insert string
		note                 string // the context's note of the values the range leaves out
		notNote              string // what the context must not say again
		latest               string // MAX of the warning's reading
		rows                 string // every value read by it, by id
	}{
		{
			"a DATETIME column with Unix times",
			"CREATE TABLE bikes (id INTEGER PRIMARY KEY, purchased DATETIME)",
			"INSERT INTO bikes VALUES (1, '2022-05-01 00:00:00'), (2, '2021-02-10'), (3, 1640995200), (4, 1672531200), (5, '2023-07-07T12:00:00'), (6, '15/01/2024'), (7, NULL)",
			`(1 other value is not an ISO date or timestamp, such as "15/01/2024": read as NULL and outside the range)`,
			"3 values",
			"2024-01-15 00:00:00",
			"[[1 2022-05-01 00:00:00] [2 2021-02-10 00:00:00] [3 2022-01-01 00:00:00] [4 2023-01-01 00:00:00] [5 2023-07-07 12:00:00] [6 2024-01-15 00:00:00] [7 <nil>]]",
		},
		{
			"a DATE column",
			"CREATE TABLE bikes (id INTEGER PRIMARY KEY, purchased DATE)",
			"INSERT INTO bikes VALUES (1, '2019-04-01'), (2, '01/03/2021'), (3, '2020-06-15'), (4, '15/01/2024'), (5, NULL)",
			`(2 values are not ISO dates, such as "01/03/2021": read as NULL and outside the range)`,
			"Unix",
			"2024-01-15",
			"[[1 2019-04-01] [2 2021-03-01] [3 2020-06-15] [4 2024-01-15] [5 <nil>]]",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, c.create, c.insert), RowLimit: 1000})
			res, err := e.Ask(context.Background(), AskRequest{Question: "When was the latest bike purchased?"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			line := contextLine(res.HostPlan.SchemaContext, "bikes")
			if !strings.Contains(line, c.note) || strings.Contains(strings.Replace(line, c.note, "", 1), c.notNote) {
				t.Errorf("context line %q: want %q, and %q said no other time", line, c.note, c.notNote)
			}
			p := `{"kind":"column","table":"b","column":"purchased"}`
			max := func(x string) *Result {
				return runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"MAX","args":[`+x+`]},"alias":"latest"}],"from":[{"table":"bikes","alias":"b"}]}`)
			}
			asType := max(p)
			w := warningWith(asType.Warnings, `"purchased" holds`)
			reading := readingAfter(w, "to read them too, read the column as ")
			if reading == "" {
				t.Fatalf("warnings %q: want the reading of the dates written otherwise", asType.Warnings)
			}
			fixed := max(reading)
			if got := fmt.Sprint(fixed.Rows[0][0]); got != c.latest {
				t.Errorf("MAX of the warning's reading %s is %s, want %s", reading, got, c.latest)
			}
			if len(fixed.Warnings) != 0 {
				t.Errorf("the warning's reading pasted back earns %q", fixed.Warnings)
			}
			all := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"b","column":"id"},"alias":"id"},{"expr":`+reading+`,"alias":"p"}],"from":[{"table":"bikes","alias":"b"}],"order_by":[{"expr":{"kind":"column","table":"b","column":"id"}}]}`)
			if got := fmt.Sprint(all.Rows); got != c.rows {
				t.Errorf("the warning's reading reads %s, want %s", got, c.rows)
			}
		})
	}
}

// contextLine is the line of a schema context that starts with table's
// name.
func contextLine(ctx, table string) string {
	for _, l := range strings.Split(ctx, "\n") {
		if strings.HasPrefix(l, table+" ") || strings.HasPrefix(l, table+":") || strings.HasPrefix(l, table+"(") {
			return l
		}
	}
	return ""
}
