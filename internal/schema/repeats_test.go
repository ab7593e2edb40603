package schema

import "testing"

// The threat: the fan-out check trusts Repeats to say a join meets several
// rows per value. A key that is unique but often NULL (a customer's
// optional account number) must not read as repeating, or every sum over
// a join on it is called inflated; a sampled profile counts distinct
// values over the rows it read, not the whole table.
func TestRepeats(t *testing.T) {
	rows := func(n int64) *int64 { return &n }
	for _, c := range []struct {
		name string
		rows *int64
		p    *ColumnProfile
		want bool
	}{
		{"unique", rows(10), &ColumnProfile{DistinctCount: 10}, false},
		{"unique but half NULL", rows(10), &ColumnProfile{DistinctCount: 5, NullFraction: 0.5}, false},
		{"repeating", rows(10), &ColumnProfile{DistinctCount: 4}, true},
		{"sampled, unique in the sample", rows(1_000_000), &ColumnProfile{DistinctCount: 1000, SampledRows: 1000}, false},
		{"sampled, repeating in the sample", rows(1_000_000), &ColumnProfile{DistinctCount: 10, SampledRows: 1000}, true},
		{"no profile", rows(10), nil, false},
		{"no row count", nil, &ColumnProfile{DistinctCount: 1}, false},
	} {
		if got := repeats(c.rows, c.p); got != c.want {
			t.Errorf("%s: repeats %v, want %v", c.name, got, c.want)
		}
	}
}
