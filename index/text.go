package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

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

// englishStop is bleve's English stop-word list (Snowball's), the one the
// full-text index's English analyzer drops.
var englishStop = func() analysis.TokenMap {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(en.EnglishStopWords); err != nil {
		panic(err) // a list compiled into bleve
	}
	return m
}()

// questionWords are words of questions that carry no schema signal and
// that the English list keeps ("how many", "list", "count").
var questionWords = map[string]bool{"can": true, "will": true, "whose": true, "per": true, "give": true, "list": true,
	"show": true, "find": true, "tell": true, "many": true, "much": true, "number": true, "count": true}

// StopWord reports whether the folded word w carries no schema signal: an
// English function word (bleve's list) or a question word. Literal
// matching ignores values made only of them; ranking leaves them out.
func StopWord(w string) bool { return englishStop[w] || questionWords[w] }

var pluralStemmer = en.NewEnglishPluralStemmerFilter()

// Singular is bleve's English plural stemmer on one folded word ("dogs" →
// "dog", "countries" → "country", "classes" → "class", "heroes" →
// "hero"; "status", "glass" stay): the one plural rule of literal
// matching, table naming, mentions, secret column names and datasource
// routing. It is deliberately lighter than the Porter stemmer the
// full-text index uses, whose stems ("compani", "countri") are not words
// a stored value could equal.
func Singular(w string) string {
	ts := pluralStemmer.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})
	return string(ts[0].Term)
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
