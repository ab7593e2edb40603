package lex

import (
	"reflect"
	"testing"
)

func TestSplitName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"InvoiceLine", "invoice line"},
		{"song_release_year", "song release year"},
		{"customerID", "customer id"},
		{"CustomerId", "customer id"},
		{"HTTPServer", "http server"},
		{"address2", "address 2"},
		{"Free Meal Count (K-12)", "free meal count k 12"},
		{"A11", "a 11"},
		{"t_shirt_size", "t shirt size"},
		{"name", "name"},
		{"NAME", "name"},
		{"ÉtatCivil", "état civil"},
		{"Order Details", "order details"},
		{"", ""},
		{"__", ""},
	}
	for _, tt := range tests {
		if got := SplitName(tt.in); got != tt.want {
			t.Errorf("SplitName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWordsFold(t *testing.T) {
	if got, want := Words("Heavy-Metal! Café Ünïcode 2009"), []string{"heavy", "metal", "cafe", "unicode", "2009"}; !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

// Singular is bleve's plural stemmer: its stems need not be words
// ("analysis" → "analysi"), since both sides of every comparison go
// through it.
func TestSingular(t *testing.T) {
	tests := map[string]string{
		"dogs": "dog", "countries": "country", "classes": "class", "boxes": "box",
		"matches": "match", "status": "status", "analysis": "analysi", "glass": "glass",
		"bus": "bus", "cat": "cat", "news": "new", "is": "is", "heroes": "hero", "hashes": "hash",
	}
	for in, want := range tests {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSameWord: a name word matches the question's word in another
// inflection ("Year_of_Founded" for "founding", "Year_of_Work" for
// "worked") but not a word that merely starts the same way, which would
// keep columns the question never asks about.
func TestSameWord(t *testing.T) {
	tests := []struct {
		name, question string
		want           bool
	}{
		{"singer", "singers", true},
		{"founded", "founding", true},
		{"work", "worked", true},
		{"injured", "injuries", true},
		{"country", "countries", true},
		{"date", "dates", true},
		{"age", "agent", false},
		{"name", "names", true},
		{"name", "number", false},
		{"year", "yearly", false},
		{"city", "capacity", false},
		// a verb and its particle, one word in the schema ("customers who
		// signed up in 2024": signup_ts)
		{"signup", "signed", true},
		{"checkout", "checking", true},
		{"login", "logged", true},
		{"within", "with", false}, // too short a verb
		{"button", "butt", false},
		{"season", "seas", false},
	}
	for _, tc := range tests {
		if got := SameWord(tc.name, tc.question); got != tc.want {
			t.Errorf("SameWord(%q, %q) = %v, want %v", tc.name, tc.question, got, tc.want)
		}
	}
}

func TestEditDistanceAtMost(t *testing.T) {
	tests := []struct {
		a, b string
		k    int
		want bool
	}{
		{"carribean", "caribbean", 2, true},
		{"carribean", "caribbean", 1, false},
		{"metal", "metal", 0, true},
		{"metal", "medal", 1, true},
		{"metal", "petal", 0, false},
		{"abc", "abcdef", 2, false},
		{"", "ab", 2, true},
		{"naïve", "naive", 1, true},
	}
	for _, tt := range tests {
		if got := EditDistanceAtMost(tt.a, tt.b, tt.k); got != tt.want {
			t.Errorf("EditDistanceAtMost(%q, %q, %d) = %v", tt.a, tt.b, tt.k, got)
		}
	}
}

// TestAbbreviates: the shortened column names schemas use are read as the
// question's words, and names that only share letters with them are not.
func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		name, question string
		want           bool
	}{
		{"Fname", "the first name of each owner", true},
		{"LName", "owners' last names", true},
		{"firstname", "first name", true},
		{"AvgMath", "average math score", true},
		{"dept_name", "department name", true},
		{"amt", "the total amount", true},
		{"forename", "the names of drivers", true},
		{"surname", "driver name", true},
		{"temp", "highest temperature", true},
		{"name", "name email", false},     // a piece of one letter cannot end the name
		{"age", "which agent", false},     // too short a prefix to tell
		{"date", "each delegate", false},  // a contraction keeps the word's first two letters
		{"dob", "date of birth", false},   // initials alone spell nothing
		{"name", "the name of it", false}, // the whole name is a mention, not a short form
		{"qty", "quantity", false},
		{"Fname", "first and last names", true},  // a coordination passes over one word
		{"injured", "most total injuries", true}, // one family, stems injur and injuri
		{"killed", "the kills", false},           // equal stems are BM25's
		{"nation", "national", true},
		{"pct_frpm_elig", "share eligible for free or reduced-price meals", true}, // an initialism of four words
		{"frpm", "free reduced meals", false},                                     // one letter more than the words
		{"fr", "free reduced", false},                                             // two letters are initials of anything
		{"susp_cnt", "how many suspensions", true},                                // the unit ends the name; the question names the thing
		{"el_reclass_rt", "rate of reclassified english learners", false},         // the words before the unit must all be spelled
		{"cnt", "how many counts", false},                                         // a unit alone names nothing
	} {
		var q []string
		for _, w := range Words(c.question) {
			if !StopWord(w) {
				q = append(q, Singular(w))
			}
		}
		if got := Abbreviates(SplitWords(c.name), q); got != c.want {
			t.Errorf("Abbreviates(%q, %q) = %v, want %v", c.name, c.question, got, c.want)
		}
	}
}
