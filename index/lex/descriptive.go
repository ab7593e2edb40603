package lex

import "strings"

// descriptiveEndings are the endings of English verb forms, adverbs and
// adjectives ("cancelled", "renting", "quickly", "refundable"): a word
// with one, if nothing holds it, may still say a fact a column holds
// under another name (a date, a flag, a status).
var descriptiveEndings = []string{"ed", "ing", "ly", "ful", "ous", "ive", "able", "ible", "ish", "less", "est"}

// Descriptive reports whether an unmatched word reads as a verb, an
// adverb or an adjective rather than a thing: its absence is weak
// evidence that the data lacks a fact, unlike that of a noun ("reason",
// "lanes"), whose fact the data would have to store under that name or a
// synonym.
func Descriptive(word string) bool {
	f := Fold(word)
	for _, e := range descriptiveEndings {
		if len(f) > len(e)+2 && strings.HasSuffix(f, e) {
			return true
		}
	}
	return false
}
