package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// offsetDB holds timestamps as an application writes them, each with the
// UTC offset of the clock that wrote it. Two of paid_at's fall on another
// day in UTC than the one they write (23:30 at -05:00 on New Year's Eve
// is 2025 in UTC; 00:15 at +01:00 on February 1st is January 31st);
// booked_at's offsets never move a day.
var offsetDB = []string{
	"CREATE TABLE payments (id INTEGER PRIMARY KEY, paid_at TEXT, booked_at TEXT)",
	"INSERT INTO payments VALUES (1, '2024-12-31T23:30:00-05:00', '2024-06-01T12:00:00+02:00')",
	"INSERT INTO payments VALUES (2, '2024-12-30T10:00:00Z', '2024-06-02T08:00:00-04:00')",
	"INSERT INTO payments VALUES (3, '2025-02-01T00:15:00+01:00', '2024-06-03T09:30:00+00:00')",
	"INSERT INTO payments VALUES (4, '2025-03-15 12:00:00', '2024-06-04 10:00:00')",
	"INSERT INTO payments VALUES (5, '2025-01-10T09:00:00+09:00', '2024-06-05T11:00:00Z')",
}

// The threat: "how many payments in 2024?" over text timestamps written
// with their writer's UTC offset. The plan reads each by the day it
// writes (a cast to date, PERIOD_LABEL, LIKE '2024%', MAX of the text),
// so the payment made at 23:30 in New York on New Year's Eve counts in
// 2024, while in UTC it is 2025: two readings that both look like the
// answer, and the user is never told there was a choice. The result and
// check_plan must name the column, how many values the reading decides
// and an example with its UTC instant, and give the expression for days
// in UTC, which must then count them by UTC day; a column whose offsets
// move no day is not warned of. On every engine.
func TestTimestampsOnAnotherDayInUTCAreNamed(t *testing.T) {
	year := func(expr string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"payments","alias":"p"}],` +
			`"where":{"kind":"binary","op":"=","left":{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","value":"year"},` + expr + `]},"right":{"kind":"literal","value":"2024"}}}`
	}
	col := func(c string) string { return `{"kind":"column","table":"p","column":"` + c + `"}` }
	for _, en := range everyEngine(offsetDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			res, err := e.RunPlan(ctx, "air", []byte(year(col("paid_at"))))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "UTC offsets")
			if fmt.Sprint(res.Rows) != "[[2]]" || !strings.Contains(w, "p.paid_at") || !strings.Contains(w, "2 values") ||
				!strings.Contains(w, `"2024-12-31T23:30:00-05:00", 2025-01-01 04:30:00 in UTC`) {
				t.Fatalf("2024 by the written day: rows %v warnings %q, want 2 rows and paid_at named with its 2 values and an example in UTC", res.Rows, res.Warnings)
			}
			check, err := e.CheckPlan(ctx, "air", []byte(year(col("paid_at"))), "")
			if err != nil || warningWith(check.Warnings, "UTC offsets") == "" {
				t.Errorf("check_plan: %v %v, want the same warning before the run", check, err)
			}
			// the warning's expression counts by the day in UTC: 1 in 2024
			_, fix, _ := strings.Cut(w, "for days in UTC read the column as ")
			fix, _, _ = strings.Cut(fix, " (a cast to timestamp")
			utc, err := e.RunPlan(ctx, "air", []byte(year(fix)))
			if err != nil {
				t.Fatalf("the warning's expression %q: %v", fix, err)
			}
			if fmt.Sprint(utc.Rows) != "[[1]]" || warningWith(utc.Warnings, "UTC offsets") != "" {
				t.Errorf("2024 by the UTC day: rows %v warnings %q, want 1 and no warning", utc.Rows, utc.Warnings)
			}
			// the text read as text: LIKE and MAX are named too
			for _, p := range []string{
				`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"payments","alias":"p"}],"where":{"kind":"like","expr":` + col("paid_at") + `,"pattern":{"kind":"literal","value":"2024%"}}}`,
				`{"select":[{"expr":{"kind":"func","name":"MAX","args":[` + col("paid_at") + `]},"alias":"x"}],"from":[{"table":"payments","alias":"p"}]}`,
			} {
				r, err := e.RunPlan(ctx, "air", []byte(p))
				if err != nil || warningWith(r.Warnings, "UTC offsets") == "" {
					t.Errorf("%s: %v %v, want the offsets named", p, r, err)
				}
			}
			// a LIKE that tests the text's shape reads no day: not said of
			shape := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"payments","alias":"p"}],"where":{"kind":"like","expr":` + col("paid_at") + `,"pattern":{"kind":"literal","value":"____-__-__T%"}}}`
			if r, err := e.RunPlan(ctx, "air", []byte(shape)); err != nil || warningWith(r.Warnings, "UTC offsets") != "" {
				t.Errorf("a shape test: %v %v, want no offset warning", r, err)
			}
			// offsets that move no day: nothing to choose, nothing said
			r, err := e.RunPlan(ctx, "air", []byte(year(col("booked_at"))))
			if err != nil || fmt.Sprint(r.Rows) != "[[5]]" || warningWith(r.Warnings, "UTC offsets") != "" {
				t.Errorf("booked_at: %v %v, want 5 rows and no offset warning", r, err)
			}
		})
	}
}
