package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"

	"golang.org/x/text/unicode/norm"
)

// SplitName turns an identifier into lower-case words: camelCase and
// PascalCase boundaries, acronym ends ("HTTPServer" → "http server"),
// letter–digit boundaries ("address2" → "address 2") and every
// non-alphanumeric rune (underscores, spaces, punctuation) separate words.
//
//	SplitName("InvoiceLine")       == "invoice line"
//	SplitName("song_release_year") == "song release year"
//	SplitName("customerID")        == "customer id"
//	SplitName("Free Meal Count (K-12)") == "free meal count k 12"
func SplitName(name string) string {
	return strings.Join(splitWords(name), " ")
}

func splitWords(name string) []string {
	rs := []rune(name)
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush() // camelCase
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush() // the last capital of an acronym starts the next word
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// fold lower-cases s and strips diacritics ("Café" → "cafe"), so literal
// matching is case- and accent-insensitive.
func fold(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// words splits folded text into alphanumeric runs: the token sequence
// literal matching compares. "Heavy-Metal!" → ["heavy", "metal"].
func words(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stopwords are English function words (and question words) that carry no
// schema signal; literal matching ignores values made only of them.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can did do does for from had has have
		how i in into is it its me my of on or our so than that the their them then there these they this
		those to was we were what when where which who whom whose why will with you your all any each
		give list show find tell many much number count`) {
		stopwords[w] = true
	}
}

// stem is a light English plural stripper used by literal matching, table
// naming and mentions ("dogs" → "dog", "countries" → "country", "classes"
// → "class"; "status", "analysis", "glass" stay). It is deliberately
// weaker than the Porter stemmer the full-text index uses, whose stems
// ("compani", "countri") are not words a stored value could equal.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// editDistanceAtMost reports whether the Levenshtein distance of a and b is
// at most k, in runes. Strings whose lengths differ by more than k are
// refused before any distance is computed.
func editDistanceAtMost(a, b string, k int) bool {
	if d := utf8.RuneCountInString(a) - utf8.RuneCountInString(b); d > k || -d > k {
		return false
	}
	return levenshtein.ComputeDistance(a, b) <= k
}
