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

// SecretColumn reports whether a column's name says it holds secrets
// (see secretWords).
func SecretColumn(name string) bool {
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
