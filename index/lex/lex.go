package lex

import (
	"github.com/nl2sql/nl2sql/internal/plural"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	porterpkg "github.com/blevesearch/bleve/v2/analysis/token/porter"
	lru "github.com/hashicorp/golang-lru/v2"

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
	return strings.Join(SplitWords(name), " ")
}

// SplitWords is SplitName as a slice of words.
func SplitWords(name string) []string {
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

// Fold lower-cases s and strips diacritics ("Café" → "cafe"), so literal
// matching is case- and accent-insensitive.
func Fold(s string) string {
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

// Words splits folded text into alphanumeric runs: the token sequence
// literal matching compares. "Heavy-Metal!" → ["heavy", "metal"].
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
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
	"show": true, "find": true, "tell": true, "many": true, "much": true, "number": true, "count": true, "every": true}

// StopWord reports whether the folded word w carries no schema signal: an
// English function word (bleve's list) or a question word. Literal
// matching ignores values made only of them; ranking leaves them out.
func StopWord(w string) bool { return englishStop[w] || questionWords[w] }

// Singular is the module's one plural rule (internal/plural): the rule of
// literal matching, table naming, mentions, secret column names and
// datasource routing.
func Singular(w string) string { return plural.Singular(w) }

// EditDistanceAtMost reports whether the Levenshtein distance of a and b is
// at most k, in runes. Strings whose lengths differ by more than k are
// refused before any distance is computed.
func EditDistanceAtMost(a, b string, k int) bool {
	if d := utf8.RuneCountInString(a) - utf8.RuneCountInString(b); d > k || -d > k {
		return false
	}
	return levenshtein.ComputeDistance(a, b) <= k
}

// Abbreviates reports whether a column name, written as its words name
// (SplitWords), spells words the question uses in sequence (q: the
// question's folded, singular words, stop words left out) in one of the
// shortened ways schemas name columns:
//
//   - pieces of consecutive question words, each piece a short form of
//     its word (the word, a prefix of it, or a contraction keeping its
//     first two letters): "Fname", "LName" ← "first name", "last name";
//     "AvgMath" ← "average math"; "firstname" ← "first name". At least
//     two words, four letters, and one piece of three letters or more, so
//     a run of initials ("dob") spells nothing;
//   - one word shortened: "temp" ← "temperature", "dept" ← "department",
//     "amt" ← "amount" ("qty" is left: its second letter is not the
//     word's);
//   - a compound ending in the question's word: "forename", "surname" ←
//     "name" (the rest three letters or more, the word four or more);
//   - a word of the same family whose Porter stems the full-text index
//     tells apart by an ending (sameFamily): "injured" ← "injuries";
//   - an initialism of three words or more (initialism): "frpm" ← "free
//     or reduced-price meals".
//
// A name the question spells out whole is a mention (package index ranks
// those), not a short form.
func Abbreviates(name, q []string) bool {
	if n := len(name); n >= 2 && unitWords[name[n-1]] && Abbreviates(name[:n-1], q) {
		return true
	}
	s := strings.Join(name, "")
	if len(s) < 3 {
		return false
	}
	for i := range q {
		if segments(s, q[i:], 0, false, false) {
			return true
		}
		for _, n := range name {
			if sameFamily(n, q[i]) || initialism(n, q[i:]) {
				return true
			}
		}
		// One word: a prefix of four letters or more ("temp"), or a
		// contraction ("dept", "amt"); "age" of "agent" is too short to
		// tell.
		w := q[i]
		if len(w) >= len(s)+2 && ((len(s) >= 4 && strings.HasPrefix(w, s)) || (!strings.HasPrefix(w, s) && contraction(s, w))) {
			return true
		}
		if len(name) == 1 && len(w) >= 4 && len(s) >= len(w)+3 && strings.HasSuffix(s, w) {
			return true
		}
	}
	return false
}

// unitWords end column names as the unit or the measure of what the
// words before them name: susp_cnt is a count of suspensions, el_reclass_rt
// a rate of reclassification; a question names the thing, not the unit.
var unitWords = map[string]bool{"cnt": true, "ct": true, "num": true, "nbr": true, "pct": true, "rt": true, "usd": true,
	"amt": true, "qty": true, "yrs": true, "min": true, "flag": true, "flg": true, "ind": true}

// initialism reports whether n, three letters or more, is the first
// letters of as many words of q from its start: "frpm" ← "free reduced
// price meal".
func initialism(n string, q []string) bool {
	if len(n) < 3 || len(q) < len(n) {
		return false
	}
	for i := range len(n) {
		if q[i] == "" || q[i][0] != n[i] {
			return false
		}
	}
	return true
}

// segments reports whether s splits into short forms of q[0], q[1], … in
// order: at least two pieces (n counts those already taken), one of three
// letters or more (long), the last a whole word or three letters or more.
// One word may be passed over once (skipped), for a coordination: "first
// and last names" names Fname as well as LName.
func segments(s string, q []string, n int, long, skipped bool) bool {
	if len(q) == 0 {
		return false
	}
	for l := len(s); l >= 1; l-- {
		p := s[:l]
		if !shortForm(p, q[0]) {
			continue
		}
		if l == len(s) {
			// The last piece is a whole word or three letters: "name e"
			// of "name email" spells no column "namee".
			if n >= 1 && (long || l >= 3) && (p == q[0] || l >= 3) {
				return true
			}
			continue
		}
		if segments(s[l:], q[1:], n+1, long || l >= 3, skipped) {
			return true
		}
		if !skipped && len(q) > 2 && segments(s[l:], q[2:], n+1, long || l >= 3, true) {
			return true
		}
	}
	return false
}

// shortForm reports whether p shortens word w: w itself, a prefix of it,
// or (three letters or more) w's first two letters followed by some of
// its later letters in order ("avg" of "average").
func shortForm(p, w string) bool {
	if strings.HasPrefix(w, p) {
		return true
	}
	return contraction(p, w)
}

// contraction is shortForm's third way: p (three letters or more) is w's
// first two letters followed by some of its later letters in order.
func contraction(p, w string) bool {
	if len(p) < 3 || len(w) < 2 || p[:2] != w[:2] {
		return false
	}
	j := 2
	for i := 2; i < len(p); i++ {
		for j < len(w) && w[j] != p[i] {
			j++
		}
		if j == len(w) {
			return false
		}
		j++
	}
	return true
}

var porter = porterpkg.NewPorterStemmer()

// SameWord reports whether a name word and a question word (both folded)
// are one word for matching names: equal in the singular ("singers",
// "singer"), equal Porter stems ("founded", "founding"; "worked", "work"),
// or one family (sameFamily: "injured", "injuries").
func SameWord(name, question string) bool {
	if name == question || Singular(name) == Singular(question) {
		return true
	}
	if stem(name) == stem(question) {
		return true
	}
	return sameFamily(name, question) || Phrasal(name, question)
}

// particles end the nouns made of a verb and its particle: signup,
// checkout, login, payout, takeoff, handover, breakdown, feedback.
var particles = []string{"up", "in", "out", "on", "off", "over", "down", "back"}

// Phrasal reports whether name is such a noun whose verb the question
// word inflects (-ed, -ing): "signup" of "signed" (up), "checkout" of
// "checking", "login" of "logged". The question spells the verb and its
// particle as two words ("signed up"), the schema as one. A bare word
// ("seas", "butt") is no verb form: season and button stay apart.
func Phrasal(name, question string) bool {
	if !strings.HasSuffix(question, "ed") && !strings.HasSuffix(question, "ing") {
		return false
	}
	for _, p := range particles {
		if verb, ok := strings.CutSuffix(name, p); ok && len(verb) >= 3 && stem(verb) == stem(question) {
			return true
		}
	}
	return false
}

// sameFamily reports whether words a and b have Porter stems (bleve's, as
// the full-text index uses) of which the shorter, five letters or more, is
// the longer but for one or two final letters: "injured" (injur) and
// "injuries" (injuri). Equal stems are BM25's match already.
func sameFamily(a, b string) bool {
	sa, sb := stem(a), stem(b)
	if len(sa) > len(sb) {
		sa, sb = sb, sa
	}
	return len(sa) >= 5 && len(sb)-len(sa) <= 2 && sa != sb && strings.HasPrefix(sb, sa)
}

// stems remembers words' stems: a ranking stems every question word
// against every column word of the catalog (on 2,000 tables, hundreds of
// thousands of calls over a vocabulary of a few thousand words), and the
// bound keeps memory flat whatever the questions.
var stems, _ = lru.New[string, string](1 << 14)

func stem(w string) string {
	if s, ok := stems.Get(w); ok {
		return s
	}
	ts := porter.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})
	s := string(ts[0].Term)
	stems.Add(w, s)
	return s
}

// ContainsSeq reports whether needle occurs contiguously in hay under eq.
func ContainsSeq(hay, needle []string, eq func(h, n string) bool) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j, n := range needle {
			if !eq(hay[i+j], n) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// UnitColumn reports whether a column named name holds the unit of the
// measure column named measure: weight_unit or weightUom of weight, or a
// plain unit, uom or unit_of_measure of any measure of its table.
func UnitColumn(name, measure string) bool {
	n := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	switch n {
	case "unit", "uom", "unitofmeasure", "units":
		return true
	}
	m := strings.ToLower(strings.ReplaceAll(measure, "_", ""))
	return n == m+"unit" || n == m+"uom" || n == m+"units"
}
