package warnings

import (
	"math/rand/v2"
	"testing"
)

// TestFoldedASCIIAgrees checks folded's ASCII shortcut against the Unicode
// transforms it stands for, on every ASCII byte in several positions and
// on random ASCII strings.
func TestFoldedASCIIAgrees(t *testing.T) {
	var cases []string
	for b := range 128 {
		c := string(rune(b))
		cases = append(cases, c, "A"+c+"z", c+" Ab ", " x"+c, c+c+"Q")
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rnd.IntN(12))
		for i := range b {
			b[i] = byte(rnd.IntN(128))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		got, ok := foldedASCII(s)
		if !ok {
			t.Fatalf("foldedASCII(%q) refused an ASCII string", s)
		}
		if want := foldedUnicode(s); got != want {
			t.Errorf("folded(%q): shortcut %q, transforms %q", s, got, want)
		}
	}
	for _, s := range []string{"Siobhán", "O’Brien", "e\u0301"} {
		if _, ok := foldedASCII(s); ok {
			t.Errorf("foldedASCII(%q) took a non-ASCII string", s)
		}
	}
	if folded(" Siobhán ") != "siobhan" || folded("O’Brien") != "o'brien" {
		t.Errorf("folded lost its Unicode cases: %q %q", folded(" Siobhán "), folded("O’Brien"))
	}
}
