package sqlscan

import "testing"

// A name stands in a text only as a whole identifier: first_name is not in
// first_names or x_first_name, while quotes, dots and brackets around it
// leave it whole.
func TestContainsWord(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"full name refers to first_name, last_name", "first_name", true},
		{"refers to first_names", "first_name", false},
		{"x_first_name", "first_name", false},
		{"`free meal count (k-12)` / x", "free meal count (k-12)", true},
		{"races.name = 'x'", "races.name", true},
		{"select * from [order details]", "order details", true},
		{"", "a", false},
		{"a", "", false},
	}
	for _, tt := range tests {
		if got := ContainsWord(tt.s, tt.sub); got != tt.want {
			t.Errorf("ContainsWord(%q, %q) = %v", tt.s, tt.sub, got)
		}
	}
}
