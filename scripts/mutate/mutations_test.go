package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// A stale entry (its file moved, its line rewritten) would only show up as
// BROKEN in the slow run; this keeps the list applicable on every test run.
func TestMutationsApplyToTheTree(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range mutations {
		if seen[m.Name] {
			t.Errorf("%s: the name is used twice", m.Name)
		}
		seen[m.Name] = true
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if n := bytes.Count(src, []byte(m.Old)); n != 1 {
			t.Errorf("%s: the text to mutate occurs %d times in %s", m.Name, n, m.File)
		}
		if m.Old == m.New {
			t.Errorf("%s: the mutation changes nothing", m.Name)
		}
		if _, err := regexp.Compile(m.Run); err != nil || m.Run == "" {
			t.Errorf("%s: -run %q is not a test pattern", m.Name, m.Run)
		}
		for _, p := range m.Pkgs {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s: package %s: %v", m.Name, p, err)
			}
		}
	}
}

// A test binary that crashes while a test runs counts as that test's kill;
// go test's own timeout (a hang) does not name a killer.
func TestCrashedIn(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\nunexpected fault address 0x1\nfatal error: fault\n", "TestB"},
		{"=== RUN   TestA\npanic: runtime error: index out of range\n", "TestA"},
		{"=== RUN   TestA\npanic: test timed out after 15s\n", ""},
		{"=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\n", ""},
		{"# pkg\n./x.go:1:1: undefined: y\nFAIL\n", ""},
	} {
		if got := crashedIn([]byte(tt.out)); got != tt.want {
			t.Errorf("crashedIn(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}
