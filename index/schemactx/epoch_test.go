package schemactx

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a planner shown started_at integer range [1696122010,
// 1722003355] knows neither that it is a time nor which dates the data
// holds; it compared it with a date literal, or answered "no trips in
// 2024". A number column named like a time whose range reads as Unix
// seconds or milliseconds says so, with the dates; other numbers say
// nothing.
func TestEpochNote(t *testing.T) {
	col := func(name string, typ planast.Type, lo, hi any) *schema.Column {
		return &schema.Column{Name: name, Type: typ, Profile: &schema.ColumnProfile{Min: lo, Max: hi}}
	}
	for _, c := range []struct {
		col  *schema.Column
		want string
	}{
		{col("started_at", planast.TypeInteger, int64(1696122010), int64(1722003355)), " (Unix seconds? FROM_EPOCH_SECONDS: 2023-10-01 to 2024-07-26)"},
		{col("createdTs", planast.TypeInteger, int64(1717418460000), int64(1720000000123)), " (Unix milliseconds? FROM_EPOCH_SECONDS(x / 1000): 2024-06-03 to 2024-07-03)"},
		{col("population", planast.TypeInteger, int64(150000000), int64(1400000000)), ""},
		{col("updated_at", planast.TypeInteger, int64(1), int64(500)), ""},
		{col("hired_on", planast.TypeText, "1696122010", "1722003355"), ""},
	} {
		if got := EpochNote(c.col); got != c.want {
			t.Errorf("%s: %q, want %q", c.col.Name, got, c.want)
		}
	}
}
