package lex

import (
	"slices"
	"strings"
)

// secretWords are the words (or runs of words, space-separated) that mark
// a column as holding secrets: its values are never profiled into
// samples, ranges or the value index, so no tool output and no prompt
// carries them. A word matches a whole word of the split column name
// (SplitName: camelCase, snake_case and digits split, case folded), also
// in the plural (Singular: "tokens", "hashes"): "password", "user_pwd", "PasswordHash", "apiKey",
// "api_key", "APIKEY", "refresh_tokens" are secret; "passage", "hashtag",
// "tokenizer_name" are not.
var secretWords = []string{
	"password", "passwd", "pwd", "secret", "token", "api key", "apikey",
	"salt", "hash", "private key", "credential",
}

// secretFirst are the first words of secretWords. An ASCII name that
// contains none of them (case aside) cannot be secret: its split words are
// pieces of the lower-cased name, and the plural rule only strips endings,
// so a secret word always shows in the name as it is. Every snapshot the
// engine serves passes through SecretColumn once per column, 40,000 times
// for a large catalog on each start, and most names fail this test.
var secretFirst = func() []string {
	out := make([]string, len(secretWords))
	for i, w := range secretWords {
		out[i] = strings.Fields(w)[0]
	}
	return out
}()

// SecretColumn reports whether a column's name says it holds secrets
// (see secretWords).
func SecretColumn(name string) bool {
	if ascii(name) {
		lower := strings.ToLower(name)
		if !slices.ContainsFunc(secretFirst, func(w string) bool { return strings.Contains(lower, w) }) {
			return false
		}
	}
	return splitSecret(name)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// splitSecret is SecretColumn without the shortcut: the name split into
// words, each made singular, searched for every secret word sequence.
func splitSecret(name string) bool {
	ws := SplitWords(name)
	for i := range ws {
		ws[i] = Singular(ws[i])
	}
	for _, sw := range secretWords {
		seq := strings.Fields(sw)
		for i := 0; i+len(seq) <= len(ws); i++ {
			if slices.Equal(ws[i:i+len(seq)], seq) {
				return true
			}
		}
	}
	return false
}
