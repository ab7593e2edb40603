package cellfmt

import (
	"encoding/json"
	"strings"
	"testing"
)

// A value from the database must not act on the terminal or the reader
// that shows it: an ESC sequence would clear the screen or recolour it, a
// bidi override would reverse the text after it, a zero-width character
// would hide one value inside another and a line break would split a table
// row. Each is shown escaped, in the table text and in quoted samples, and
// the quoted form still reads back to the exact stored value.
func TestHostileTextIsShownEscaped(t *testing.T) {
	for _, tc := range []struct{ in, text string }{
		{"\x1b[2J\x1b[31mRED", `\u001b[2J\u001b[31mRED`},
		{"abc\u202edef", `abc\u202edef`},
		{"iso\u2066x\u2069", `iso\u2066x\u2069`},
		{"zero\u200bwidth\u200f", `zero\u200bwidth\u200f`},
		{"line\nbreak\ttab\rcr", `line\nbreak\ttab\rcr`},
		{"del\x7f c1\u009b", `del\u007f c1\u009b`},
		{"sep\u2028", `sep\u2028`},
		{`back\slash`, `back\\slash`},
		{"tag\U000e0041", `tag\udb40\udc41`},
		{"plain 数量 😀 & <b>", "plain 数量 😀 & <b>"},
	} {
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %s, want %s", tc.in, got, tc.text)
		}
		q := Quote(tc.in)
		if q != `"`+strings.ReplaceAll(tc.text, `"`, `\"`)+`"` {
			t.Errorf("Quote(%q) = %s, want the Text escapes %s inside quotes", tc.in, q, tc.text)
		}
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != tc.in {
			t.Errorf("Quote(%q) = %s reads back %q (%v)", tc.in, q, back, err)
		}
		for _, r := range Text(tc.in) {
			if Hidden(r) {
				t.Errorf("Text(%q) = %q keeps the raw character %U", tc.in, Text(tc.in), r)
			}
		}
	}
}
