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
