package schemactx

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A planner shown a date column's range took its end for the latest date
// while the column held '15/01/2024', read as NULL and left out of the
// range. The note counts such values with one of them, apart from the
// Unix times UnixTimesNote names (never counting those twice), and says
// "outside the range" only where there is one.
func TestUnreadNoteCountsWhatTheRangeLeavesOut(t *testing.T) {
	unix := &schema.StoredNumbers{Count: 2, Min: int64(1640995200), Max: int64(1672531200)}
	for _, c := range []struct {
		name string
		typ  planast.Type
		p    *schema.ColumnProfile
		want string
	}{
		{"a date in another form", planast.TypeDate, &schema.ColumnProfile{Min: "2019-04-01", Max: "2021-03-01", Invalid: 1, InvalidExample: "01/03/2021"},
			`1 value is not an ISO date, such as "01/03/2021": read as NULL and outside the range`},
		{"beside Unix times, the example text", planast.TypeTimestamp, &schema.ColumnProfile{Min: "2021-02-10", Max: "2023-07-07T12:00:00", Invalid: 4, InvalidExample: int64(1640995200), Numbers: unix,
			SampleValues: []any{int64(1640995200), "2021-02-10 00:00:00", "15/01/2024", "2024-02-30"}},
			`2 other values are not ISO dates or timestamps, such as "15/01/2024": read as NULL and outside the range`},
		{"Unix times alone", planast.TypeTimestamp, &schema.ColumnProfile{Min: "2021-02-10", Max: "2023-07-07", Invalid: 2, InvalidExample: int64(1640995200), Numbers: unix}, ""},
		{"numbers that are no Unix times", planast.TypeDate, &schema.ColumnProfile{Invalid: 3, InvalidExample: int64(45000), Numbers: &schema.StoredNumbers{Count: 3, Min: int64(45000), Max: int64(45100)}},
			`3 values are not ISO dates, such as 45000: read as NULL`},
		{"nothing unread", planast.TypeDate, &schema.ColumnProfile{Min: "2019-04-01", Max: "2021-03-01"}, ""},
		{"a number column", planast.TypeInteger, &schema.ColumnProfile{Invalid: 1, InvalidExample: "abc"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			col := schema.Column{Name: "purchased", Type: c.typ, Profile: c.p}
			if got := UnreadNote(&col); got != c.want {
				t.Errorf("UnreadNote = %q, want %q", got, c.want)
			}
		})
	}
}
