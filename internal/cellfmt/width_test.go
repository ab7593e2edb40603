package cellfmt

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// TestWidthIsUnisegs: the printable-ASCII count agrees with uniseg on
// every ASCII byte in context and on random strings.
func TestWidthIsUnisegs(t *testing.T) {
	cases := []string{"", "東京都", "😀😀 ok", "e\u0301", "tab\tx", "\r\n"}
	for b := range 256 {
		c := string([]byte{byte(b)})
		cases = append(cases, c, "ab"+c, c+"\u0301")
	}
	r := rand.New(rand.NewPCG(9, 4))
	for range 2000 {
		b := make([]byte, r.IntN(16))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0x60))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := Width(s), uniseg.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, uniseg says %d", s, got, want)
		}
	}
}

// The threat: a value cut by counting runes took twice its room when it
// was CJK (60 characters are 120 terminal cells), pushing every column
// after it off the screen, and a cut by bytes or runes could split a
// character or leave an accent, a flag's half or a family emoji's
// members apart, so the cell showed a character the database does not
// hold. Cut keeps whole graphemes within the width.
func TestCutByDisplayWidthAndWholeGraphemes(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
		cut   bool
	}{
		{"abc", 3, "abc", false},
		{"abcd", 3, "abc", true},
		{"東京運送", 8, "東京運送", false},
		{"東京運送", 5, "東京", true},
		{"東京運送", 4, "東京", true},
		{"a東京", 2, "a", true},
		{"Cafe\u0301 au lait", 4, "Cafe\u0301", true}, // the accent stays with its e
		{"🇯🇵🇫🇷", 3, "🇯🇵", true},                       // never half a flag
		{"👨‍👩‍👧 family", 2, "👨‍👩‍👧", true},
		{"", 0, "", false},
	} {
		got, cut := Cut(c.in, c.width)
		if got != c.want || cut != c.cut {
			t.Errorf("Cut(%q, %d) = %q, %v; want %q, %v", c.in, c.width, got, cut, c.want, c.cut)
		}
		if Width(got) > c.width || !utf8.ValidString(got) || !strings.HasPrefix(c.in, got) {
			t.Errorf("Cut(%q, %d) = %q: wider than the width, or not a start of the value", c.in, c.width, got)
		}
	}
}
