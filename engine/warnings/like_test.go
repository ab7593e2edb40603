package warnings

import "testing"

// The warnings judge a LIKE by the values it matches as the engines do:
// % any run, _ one character, a backslash taking the next character as it
// is (the renderer writes ESCAPE '\'). Read wrong, 'plumb\_%' would be
// said to miss 'Plumbing' (its _ taken for any character) and a host
// sent to a fix that changes nothing.
func TestLikeMatchersReadPatternsAsTheEngines(t *testing.T) {
	for _, c := range []struct {
		pattern, value string
		exact, loose   bool
	}{
		{"plumb%", "plumbing", true, true},
		{"plumb%", "Plumbing", false, true},
		{"plumb\\_%", "plumb_kit", true, true},
		{"plumb\\_%", "Plumb_Kit", false, true},
		{"plumb\\_%", "Plumbing", false, false},
		{"100\\%", "100%", true, true},
		{"100\\%", "1000", false, false},
		{"a_c", "ABC", false, true},
	} {
		exact, loose := likeMatchers(c.pattern, true)
		if exact(c.value) != c.exact || loose(c.value) != c.loose {
			t.Errorf("%q LIKE %q: as written %v, regardless of case %v; want %v, %v", c.value, c.pattern, exact(c.value), loose(c.value), c.exact, c.loose)
		}
	}
}
