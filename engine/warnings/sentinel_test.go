package warnings

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: an average rating over a column documented "App versions
// before 4.0 stored 0 for a skipped rating - 0 is never a real rating"
// read the zeros as ratings (London 3.71 where 4.01), and the note's
// words were none the rule knew. Owners write the rule many ways; each
// names the number and its meaning, while a note that gives a number a
// meaning of its own, or names a code, names none.
func TestSentinelReadsTheWaysOwnersWriteIt(t *testing.T) {
	for _, c := range []struct{ note, value string }{
		{"Customer satisfaction 1-5; 0 = survey sent but not answered", "0"},
		{"1-5 stars. NULL = rating skipped. App versions before 4.0 stored 0 for a skipped rating - 0 is never a real rating.", "0"},
		{"-1 means unknown", "-1"},
		{"Temperature; 999: not measured", "999"},
		{"0 is a placeholder written by the import", "0"},
		{"Score out of 10 (99 stands for no value)", "99"},
		{"Hours to resolve; 0 is a ticket closed at once", ""},
		{"1 = test account. Column introduced June 2023", ""},
		{"Courier 999 is the internal QA rider that delivers test orders", ""},
		{"Quantity ordered, at least 1", ""},
	} {
		got, _ := sentinel(&schema.Column{Name: "x", Type: planast.TypeInteger, Comment: c.note})
		if got != c.value {
			t.Errorf("%q: sentinel %q, want %q", c.note, got, c.value)
		}
	}
}
