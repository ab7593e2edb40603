package lex

import "testing"

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
