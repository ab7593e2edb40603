package lex

import "testing"

// The threat: a verb or an adjective nothing spells is told to a host as
// a fact the data does not store, and the host refuses; a noun nothing
// holds is told softly, and the host answers without the fact.
func TestDescriptive(t *testing.T) {
	for _, c := range []struct {
		word string
		want bool
	}{
		{"refunded", true}, {"renting", true}, {"quickly", true}, {"refundable", true}, {"hottest", true},
		{"careful", true}, {"dangerous", true}, {"expensive", true},
		{"reason", false}, {"lanes", false}, {"weather", false}, {"loyalty", false}, {"customer", false},
		{"red", false}, {"bed", false}, // too short to carry an ending
	} {
		if got := Descriptive(c.word); got != c.want {
			t.Errorf("Descriptive(%q) = %v, want %v", c.word, got, c.want)
		}
	}
}
