package duckcompute

import (
	"context"
	"fmt"
	"testing"
)

// The threat: sessions from one datasource and clinics' zones from
// another, combined, counted by UTC hour where the question asked for
// clinic local time. The combination's final plan reads each instant (as
// a datasource returns a timestamptz, with its +00:00 marker) on its
// clinic's wall clock, summer and winter, and a zone no one knows is NULL.
func TestCombinationReadsInstantsInAZone(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := d.Load(ctx, shape("sq_s", "id", tInt, "starts_at", tTS, "tz", tText), [][]any{
		{int64(1), "2024-07-01 06:30:00+00:00", "Europe/London"},
		{int64(2), "2024-01-15 06:30:00+00:00", "Europe/London"},
		{int64(3), "2024-07-01 06:30:00+00:00", "Europe/Amsterdam"},
		{int64(4), "2024-07-01 06:30:00+00:00", "Mars/Olympus"},
	}); err != nil {
		t.Fatal(err)
	}
	out, err := d.Run(ctx, decode(t, `{"select": [{"expr": {"kind": "column", "table": "s", "column": "id"}, "alias": "id"},
		{"expr": {"kind": "func", "name": "AT_TIME_ZONE", "args": [{"kind": "column", "table": "s", "column": "starts_at"}, {"kind": "column", "table": "s", "column": "tz"}]}, "alias": "local"},
		{"expr": {"kind": "func", "name": "DATE_PART", "args": [{"kind": "literal", "value": "hour"}, {"kind": "func", "name": "AT_TIME_ZONE", "args": [{"kind": "column", "table": "s", "column": "starts_at"}, {"kind": "literal", "value": "Europe/London"}]}]}, "alias": "london_hour"}],
		"from": [{"table": "sq_s", "alias": "s"}], "order_by": [{"expr": {"kind": "column", "column": "id"}}]}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[1 2024-07-01 07:30:00 7] [2 2024-01-15 06:30:00 6] [3 2024-07-01 08:30:00 7] [4 <nil> 7]]"
	if got := fmt.Sprint(out.Rows); got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
}
