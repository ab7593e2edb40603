package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: "how many hours does a job take to close?" had no function:
// the subtraction of two timestamps is refused, DATE_DIFF_DAYS counts
// calendar days, and a host assembling days and hours from DATE_PART
// gets a job that closes after midnight wrong. ELAPSED_SECONDS(end,
// start) must give the same seconds on every engine, to the millisecond:
// across midnight, from a date's midnight, and from text timestamps with
// UTC offsets read as the instants they name; the refusal of a
// subtraction must name it.
func TestElapsedTimeIsOneFigureOnEveryEngine(t *testing.T) {
	db := []string{
		"CREATE TABLE jobs (id INTEGER PRIMARY KEY, opened TIMESTAMP, closed TIMESTAMP, opened_txt TEXT, closed_txt TEXT, due DATE)",
		"INSERT INTO jobs VALUES (1, '2024-03-01 22:00:00', '2024-03-03 01:30:00', '2024-03-01T22:00:00-05:00', '2024-03-02T05:30:00Z', '2024-03-02')",
		"INSERT INTO jobs VALUES (2, '2024-03-01 00:00:00.250', '2024-03-01 00:00:01', '2024-02-29T23:00:00+01:00', '2024-02-29 22:00:01', '2024-03-01')",
	}
	col := func(c string) string { return `{"kind":"column","table":"j","column":"` + c + `"}` }
	el := func(end, start, alias string) string {
		return `{"expr":{"kind":"func","name":"ELAPSED_SECONDS","args":[` + end + `,` + start + `]},"alias":"` + alias + `"}`
	}
	plan := `{"select":[` + el(col("closed"), col("opened"), "ts") + `,` + el(col("closed_txt"), col("opened_txt"), "txt") + `,` +
		el(col("due"), col("opened"), "from_date") + `],"from":[{"table":"jobs","alias":"j"}],"order_by":[{"expr":` + col("id") + `}]}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", []byte(plan))
			if err != nil {
				t.Fatal(err)
			}
			// 27.5 hours; 2.5 hours between the instants; 2 hours from 22:00
			// to the due day's midnight; 0.75 s; 1 s; -0.25 s
			if got := fmt.Sprint(res.Rows); got != "[[99000 9000 7200] [0.75 1 -0.25]]" {
				t.Errorf("elapsed seconds = %s\n%s", got, res.SQL)
			}
			_, err = e.CheckPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"binary","op":"-","left":`+col("closed")+`,"right":`+col("opened")+`},"alias":"d"}],"from":[{"table":"jobs","alias":"j"}]}`), "")
			if err == nil || !strings.Contains(err.Error(), "ELAPSED_SECONDS(end, start)") {
				t.Errorf("closed - opened: %v, want the refusal to name ELAPSED_SECONDS", err)
			}
		})
	}
}
