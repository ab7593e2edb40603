package warnings

import (
	"fmt"
	"testing"
)

// A status written 'paid', 'PAID' and 'Pd' lost the 'Pd' rows to every
// fold; a value short for one other is named as likely short for it, and
// one short for two (or for none) is not.
func TestAbbreviationsOf(t *testing.T) {
	for _, c := range []struct {
		vals []string
		want string
	}{
		{[]string{"paid", "PAID", " paid ", "Pd", "bounced"}, `[[Pd paid]]`},
		{[]string{"Cancelled", "CXL", "confirmed", "no show", "NS"}, `[[NS no show]]`}, // no x in cancelled
		{[]string{"CO", "conf", "checked out"}, `[]`},                                  // short for two: no claim
		{[]string{"N", "no", "yes"}, `[]`},                                             // one letter, and 'no' no longer by two
		{[]string{"A-1", "Alpha-1"}, `[]`},                                             // codes, not words
		{[]string{"paid", "pending", "open"}, `[]`},                                    // words of their own
		{[]string{"DD", "direct debit", "BANK"}, `[[DD direct debit]]`},
	} {
		if got := fmt.Sprint(abbreviationsOf(c.vals, 5)); got != c.want && !(got == "[]" && c.want == "[]") {
			t.Errorf("%q: %s, want %s", c.vals, got, c.want)
		}
	}
}
