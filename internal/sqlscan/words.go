package sqlscan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ContainsWord reports whether s holds sub with no letter, digit or
// underscore right before or after it: sub stands as a whole identifier
// (or a run of them) in s, however s quotes it.
func ContainsWord(s, sub string) bool {
	if sub == "" {
		return false
	}
	for from := 0; ; {
		k := strings.Index(s[from:], sub)
		if k < 0 {
			return false
		}
		k += from
		before, _ := utf8.DecodeLastRuneInString(s[:k])
		after, _ := utf8.DecodeRuneInString(s[k+len(sub):])
		if !identRune(before) && !identRune(after) {
			return true
		}
		from = k + 1
	}
}

// identRune reports whether r may stand in a bare identifier; the
// RuneError of an empty side is none.
func identRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
