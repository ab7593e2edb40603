package curated

import (
	"strings"
	"testing"
)

// The threat: a newcomer guessed "queries:" for the file's list and was
// told "field queries not found in type curated.fileShape": a Go type the
// file never shows, and no word of what the key should be. An unknown key
// is named with its place in the file, the key meant where one is near,
// and every key that place takes; the file's other errors are kept.
func TestUnknownKeysAreNamedInTheFilesTerms(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"the list under another name", "queries:\n  - id: a\n", []string{
			"line 1: unknown key queries in the file's top level; its keys are min_similarity, allow_recursive, plan_timeout_seconds, verified_queries"}},
		{"a misspelt query key", "verified_queries:\n  - id: a\n    questons: [x]\n", []string{
			"line 3: unknown key questons in a verified query (did you mean questions?); its keys are id, datasource, description, questions, sql, params"}},
		{"a parameter's key", "verified_queries:\n  - id: a\n    params:\n      - {name: y, typ: string}\n", []string{
			"line 4: unknown key typ in a parameter (did you mean type?)"}},
		{"two at once", "querys: []\nmin_similarty: 0.5\n", []string{"unknown key querys", "unknown key min_similarty in the file's top level (did you mean min_similarity?)"}},
	} {
		_, err := parseFile("curated.yaml", []byte(tc.file))
		if err == nil {
			t.Fatalf("%s: loaded", tc.name)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nwant %q", tc.name, err, w)
			}
		}
		if strings.Contains(err.Error(), "curated.fileShape") || strings.Contains(err.Error(), "type curated.") {
			t.Errorf("%s: the error names a Go type: %v", tc.name, err)
		}
	}
	// a wrong type is yaml's own error, kept
	if _, err := parseFile("curated.yaml", []byte("min_similarity: high\n")); err == nil || !strings.Contains(err.Error(), "high") {
		t.Errorf("a wrong type: %v", err)
	}
}
