package warnings

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Abbreviations among a column's values. A status written 'paid', 'PAID',
// ' paid ' and 'Pd' was merged by LOWER(TRIM(x)) but for 'Pd', 108 of a
// month's payments, which no fold reaches: the letters of a short value
// that begin as one longer value's and follow its letters in order are
// likely short for it. Said as a likelihood, never merged: 'CO' (checked
// out) is no 'conf' (confirmed), so a value short for two is not named.

// abbreviationsOf gives, for each value of vals short for exactly one other
// value of vals (shortFor), the pair ("Pd" short for "paid", the longer
// in lower case without its spaces around), at most max.
func abbreviationsOf(vals []string, max int) [][2]string {
	var out [][2]string
	for _, a := range vals {
		if slices.ContainsFunc(out, func(p [2]string) bool { return p[0] == a }) {
			continue
		}
		var longs []string // the letters of each value a is short for
		first := ""
		for _, w := range vals {
			if shortFor(a, w) && !slices.Contains(longs, letters(w)) {
				longs = append(longs, letters(w))
				if first == "" {
					first = loose(w)
				}
			}
		}
		if len(longs) == 1 && len(out) < max {
			out = append(out, [2]string{a, first})
		}
	}
	return out
}

// shortFor reports whether a reads as an abbreviation of w: two or three
// letters (any case, spaces around), the first w's, all of them w's in
// order, and w at least two letters longer.
func shortFor(a, w string) bool {
	la, lw := letters(a), letters(w)
	if len(la) < 2 || len(la) > 3 || len(lw) < len(la)+2 || la[0] != lw[0] {
		return false
	}
	i := 0
	for j := 0; j < len(lw) && i < len(la); j++ {
		if lw[j] == la[i] {
			i++
		}
	}
	return i == len(la)
}

// letters is s folded to lower case with all but its letters left out; ""
// when s holds anything but letters and spaces.
func letters(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r):
			b.WriteRune(r)
		case r == ' ':
		default:
			return ""
		}
	}
	return b.String()
}

// firsts is the abbreviations of pairs.
func firsts(pairs [][2]string) []string {
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p[0]
	}
	return out
}

// abbreviationNote is what a warning adds of such pairs.
func abbreviationNote(pairs [][2]string) string {
	if len(pairs) == 0 {
		return ""
	}
	var said []string
	for _, p := range pairs {
		said = append(said, fmt.Sprintf("%q may be short for %q", p[0], p[1]))
	}
	return "; " + strings.Join(said, ", ") + " (its letters, in order), which no fold of case or spaces reaches: take it too if it is"
}
