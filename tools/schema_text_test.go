package tools

import (
	"strings"
	"testing"
)

// A host checks a spelling ('Welcome to NY') against a column's samples
// before it filters on it. A sample cut in the middle ("Do no…") cannot be
// checked, and a list that does not say whether it is complete cannot tell
// the host that a value is absent. Samples show whole, say how many did
// not fit, and say when they are all the column's values.
func TestSampleListShowsWholeValues(t *testing.T) {
	long := strings.Repeat("x", 150)
	for _, c := range []struct {
		name string
		vals []string
		all  bool
		want string
	}{
		{"fits, complete", []string{`"Ann"`, `"Bo"`}, true, `  all values: "Ann" | "Bo"`},
		{"fits, samples", []string{`"Ann"`, `"Bo"`}, false, `  e.g. "Ann" | "Bo"`},
		{"cut at a value", []string{`"A history of Arts"`, `"About Korea"`, `"Customer reviews"`, `"Data base"`, `"Do not panic"`, `"Welcome to NY"`, `"Zoo"`}, true,
			`  all values: "A history of Arts" | "About Korea" | "Customer reviews" | "Data base" | "Do not panic" | … 2 more`},
		{"one value beyond the budget", []string{`"` + long + `"`, `"b"`}, false, `  e.g. "` + long[:sampleBudget-2] + `… | … 1 more`},
	} {
		if got := sampleList(c.vals, c.all); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
