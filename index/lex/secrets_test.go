package lex

import (
	"strings"
	"testing"
)

// Whole words of the split name decide, so secrets are caught in any
// spelling and ordinary columns that merely contain the letters keep
// their samples.
func TestSecretColumn(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "PASSWORD": true, "user_pwd": true, "passwd": true, "PasswordHash": true,
		"password_hash": true, "apiKey": true, "api_key": true, "APIKEY": true, "APIKey": true,
		"refresh_tokens": true, "password_hashes": true, "client_secret": true, "salt": true, "private_key": true, "Credentials": true,
		"passage": false, "hashtag": false, "tokenizer_name": false, "username": false, "key": false,
		"private": false, "api_version": false, "salty_snack": false, "last_update": false,
	} {
		if got := SecretColumn(name); got != want {
			t.Errorf("SecretColumn(%q) = %v, want %v", name, got, want)
		}
	}
}

// The shortcut SecretColumn takes for ASCII names never changes its
// verdict: if it did, a secret column's values would be profiled into
// samples and prompts. Checked against the full rule over names built from
// every secret word in many spellings (case, separators, plurals, camel
// case, prefixes and suffixes) and ordinary words around them.
func TestSecretShortcutKeepsTheVerdict(t *testing.T) {
	parts := []string{"user", "Api", "KEYS", "key", "private", "Hashes", "ies", "es", "s", "x", "2", "name", "passage", "tokenizer", "ñ"}
	for _, w := range secretWords {
		for _, f := range []func(string) string{strings.ToLower, strings.ToUpper, strings.Title,
			func(s string) string { return strings.ReplaceAll(s, " ", "_") },
			func(s string) string { return strings.ReplaceAll(strings.Title(s), " ", "") },
			func(s string) string { return s + "s" }, func(s string) string { return s + "es" }} {
			parts = append(parts, f(w))
		}
	}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, sep := range []string{"", "_", " ", "-", "3"} {
				name := a + sep + b
				if got, want := SecretColumn(name), splitSecret(name); got != want {
					t.Errorf("SecretColumn(%q) = %v, the full rule says %v", name, got, want)
				}
				n++
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d names checked", n)
	}
}
