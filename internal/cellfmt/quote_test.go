package cellfmt

import (
	"encoding/json"
	"strings"
	"testing"
)

// Text quoted for a reader shows the stored characters: an ampersand or an
// angle bracket in a genre, a tag or a formula stays itself, and the
// quoted form still decodes to the exact stored string.
func TestQuoteKeepsTheStoredText(t *testing.T) {
	for _, s := range []string{`Alternative & Punk`, `<b>bold</b>`, `a > b`, `say "hi"`, "tab\there", `back\slash`, "Ünïcødé 数量", ""} {
		q := Quote(s)
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Errorf("Quote(%q) = %s, reads back %q (%v)", s, q, back, err)
		}
		for _, esc := range []string{`\u0026`, `\u003c`, `\u003e`} {
			if contains(q, esc) {
				t.Errorf("Quote(%q) = %s: writes %s for a stored character", s, q, esc)
			}
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// InvalidUTF8 names the first byte a decoder would replace with U+FFFD,
// where a valid multi-byte character is no fault.
func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"café ☕", -1},
		{"", -1},
		{"caf\xe9 x", 3},
		{"ok\xc3", 2},
		{"\xff", 0},
	} {
		if got := InvalidUTF8([]byte(c.in)); got != c.want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
