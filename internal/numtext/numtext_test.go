package numtext

import "testing"

// A number written for people reads as its value; marks that fit no
// reading (an address, a version, a list) are no number, so a column of
// addresses is not taken for one of numbers nor "10.0.0.1" in a question
// for a parameter.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"4.5", "4.5", true},
		{"4,5", "4.5", true},
		{"1,200", "1200", true},
		{"1.234.567", "1234567", true},
		{"1,200.50", "1200.50", true},
		{"1.200,50", "1200.50", true},
		{"007", "7", true},
		{"10.0.0.1", "", false},
		{"1.2.3", "", false},
		{"1,2,3", "", false},
		{"1234,567", "", false},
	} {
		got, ok := Value(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Value(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
