package places

import (
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	tests := []struct {
		word string
		want []string // among the names
		not  []string // never among them
	}{
		{"Canadian", []string{"Canada", "CAN"}, []string{"CA"}},
		{"canadians", []string{"Canada"}, nil},
		{"British", []string{"United Kingdom", "UK", "Great Britain", "GBR"}, []string{"GB"}},
		{"American", []string{"United States", "USA"}, []string{"US"}},
		{"Dutch", []string{"Netherlands", "Holland"}, nil},
		{"Swiss", []string{"Switzerland"}, nil},
		{"Germans", []string{"Germany", "DEU"}, nil},
	}
	for _, tt := range tests {
		got := Names(tt.word)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Names(%q) = %v, lacks %q", tt.word, got, w)
			}
		}
		for _, w := range tt.not {
			if slices.Contains(got, w) {
				t.Errorf("Names(%q) = %v holds the two-letter code %q, which other columns hold for other things", tt.word, got, w)
			}
		}
	}
	for _, w := range []string{"cities", "customers", "islander", "", "s", "Canada"} {
		if got := Names(w); got != nil {
			t.Errorf("Names(%q) = %v, want nil: not a one-word demonym", w, got)
		}
	}
}
