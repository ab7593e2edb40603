package lex

import (
	"fmt"
	"testing"
)

// The threat: a verified query with a number parameter is not offered,
// or offered with the wrong value, because the question writes its number
// with a decimal mark or a unit glued on ("4.5 km", "4,5 km", "4.5km"),
// while a date, a code or a thousands group must not be read as a number
// it is not ("2024-05-01" is no 2024, "1,200" is no 1.2).
func TestNumbers(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"longer than 4.5 km?", "[4.5]"},
		{"longer than 0.5 km", "[0.5]"},
		{"longer than 4,5 km", "[4.5]"},        // a decimal comma: one comma, fewer than three digits after
		{"fares above €2,50", "[2.50]"},        // after a currency sign
		{"longer than 4.5km", "[4.5 km]"},      // a unit glued on
		{"longer than 10km.", "[10 km]"},       // the full stop ends the sentence
		{"more than 1,200 trips", "[1200]"},    // thousands
		{"over 12,345,678 rows", "[12345678]"}, // thousands
		{"over 4,500 rows", "[4500]"},          // three digits after one comma group thousands
		{"over 1,200.50 CHF", "[1200.50]"},
		{"über 1.200,50 CHF", "[1200.50]"},
		{"below -3.5 degrees", "[-3.5]"},
		{"between 3 and 7", "[3 7]"},
		{"top 5 in 2024", "[5 2024]"},
		{"since 2024-05-01", "[]"},  // a date
		{"opened 01/03/2021", "[]"}, // a date
		{"at 10:30", "[]"},          // a time
		{"rider BR1234", "[]"},      // an id
		{"in 2024Q1", "[]"},         // a code
		{"version v1.2.3 or 1.2.3", "[]"},
		{"host 10.0.0.1", "[]"},
		{"über 1.234.567 Fahrten", "[1234567]"},
		{"the values 1,2,3", "[]"}, // a list, no reading
		{"4,5000 units", "[]"},     // no reading
		{"0,500 units", "[]"},      // no reading
		{"route 4-5", "[]"},        // a range of two
		{"007 agents", "[7]"},
	} {
		var got []string
		for _, n := range Numbers(c.text) {
			s := n.Value
			if n.Unit != "" {
				s += " " + n.Unit
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("Numbers(%q) = %v, want %s", c.text, got, c.want)
		}
	}
}

// A question's term that is a number (as the full-text analysis cuts it:
// "4.5km", "4,5") is a parameter's value, its unit a word; a code is
// neither.
func TestNumberUnit(t *testing.T) {
	for _, c := range []struct {
		word, unit string
		ok         bool
	}{
		{"4.5km", "km", true}, {"4km", "km", true}, {"4,5", "", true}, {"1,200", "", true}, {"-3", "", true},
		{"0.5", "", true}, {"br1234", "", false}, {"2024q1", "", false}, {"v1.2.3", "", false}, {"km", "", false},
		{"1,2,3", "", false},
	} {
		unit, ok := NumberUnit(c.word)
		if unit != c.unit || ok != c.ok {
			t.Errorf("NumberUnit(%q) = %q, %v, want %q, %v", c.word, unit, ok, c.unit, c.ok)
		}
	}
}
