package scale

import (
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
)

// The canonical hash ignores row order and column names, rounds floats,
// normalises timestamps, and keeps NULL apart from "null" and from 0.
func TestResultHash(t *testing.T) {
	r := func(cols []string, rows ...[]any) *source.Result { return &source.Result{Columns: cols, Rows: rows} }
	ab := []string{"a", "b"}
	cases := []struct {
		name  string
		x, y  *source.Result
		equal bool
	}{
		{"row order", r(ab, []any{int64(1), "x"}, []any{int64(2), "y"}), r(ab, []any{int64(2), "y"}, []any{int64(1), "x"}), true},
		{"aliases", r(ab, []any{int64(1), "x"}), r([]string{"c", "d"}, []any{int64(1), "x"}), true},
		{"float rounding", r(ab, []any{0.1 + 0.2, nil}), r(ab, []any{0.3, nil}), true},
		{"integral float", r(ab, []any{21.0, nil}), r(ab, []any{int64(21), nil}), true},
		{"timestamps", r(ab, []any{"2025-01-02 03:04:05", nil}), r(ab, []any{"2025-01-02T03:04:05Z", nil}), true},
		{"time value", r(ab, []any{time.Date(2025, 1, 2, 4, 4, 5, 0, time.FixedZone("", 3600)), nil}), r(ab, []any{"2025-01-02T03:04:05Z", nil}), true},
		{"null vs string", r(ab, []any{nil, "x"}), r(ab, []any{"null", "x"}), false},
		{"null vs zero", r(ab, []any{nil, "x"}), r(ab, []any{int64(0), "x"}), false},
		{"different values", r(ab, []any{int64(21), "x"}), r(ab, []any{int64(213), "x"}), false},
		{"column order", r(ab, []any{int64(1), "x"}), r(ab, []any{"x", int64(1)}), false},
		{"row multiplicity", r(ab, []any{int64(1), "x"}), r(ab, []any{int64(1), "x"}, []any{int64(1), "x"}), false},
		{"empty vs one column empty", r(ab), r([]string{"a"}), false},
	}
	for _, tc := range cases {
		if got := resultHash(tc.x) == resultHash(tc.y); got != tc.equal {
			t.Errorf("%s: equal = %v, want %v", tc.name, got, tc.equal)
		}
	}
}
