package cellfmt

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Width is how many terminal cells s takes (uniseg's display width): a CJK
// character or an emoji takes two, a combining accent none. Every text
// table pads and cuts by it, so a row holding "東京運送" lines up with the
// rows around it; counting runes or bytes would shift the columns after
// it. Printable ASCII alone (most cells) is counted directly: each such
// character is a grapheme one cell wide.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return uniseg.StringWidth(s)
		}
	}
	return len(s)
}

// Cut is the longest start of s that takes at most width cells (Width),
// made of whole graphemes, so a cut never splits a character, nor an
// accent or an emoji sequence from what it belongs to; cut reports
// whether it is shorter than s. The caller marks the cut (… and, where
// nothing else says so, how long the value is).
//
//	cellfmt.Cut("東京運送", 5) // "東京", true
func Cut(s string, width int) (head string, cut bool) {
	if Width(s) <= width {
		return s, false
	}
	used, end, state := 0, 0, -1
	for rest := s; rest != ""; {
		var g string
		var w int
		g, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+w > width {
			break
		}
		used += w
		end += len(g)
	}
	return s[:end], true
}

// Pad is s followed by spaces up to width cells (Width); s as it is when
// it is as wide or wider. fmt's %-24s pads by bytes, so a name in CJK or
// with accents would end its column early and shift the ones after it.
func Pad(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
