package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The threat: a config with a tab for indentation, or a { … } left open,
// failed with the parser's words alone ("found character that cannot
// start any token"; "line 1: did not find expected ',' or '}'" for a
// mapping opened on line 2), and the user hunted for the fault. The error
// names the line and what is wrong on it.
func TestYAMLErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"tab", "datasources:\n\t- {id: shop, engine: sqlite, path: shop.db}\n", "line 2 is indented with a tab"},
		{"open mapping", "datasources:\n  - {id: shop, engine: sqlite, path: shop.db\n", "line 2 opens { without closing it"},
		{"open list", "datasources:\n  - id: shop\n    engine: sqlite\n    path: shop.db\n    tables: [a, b\n", "line 5 opens [ without closing it"},
		// the parser says "line 1" (the list began on line 2, counted from
		// zero); the key under-indented by one space is on line 5
		{"misindented key", "datasources:\n  - id: shop\n    engine: sqlite\n    path: shop.db\n   row_limit: 10\n", `parsing stopped at line 5, column 4: "   row_limit: 10"`},
		{"key after a list item's end", "datasources:\n  - id: shop\n    engine: sqlite\n  path: shop.db\nresults: {}\n", "line 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nl2sql.yaml")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if err == nil {
				t.Fatal("loaded a broken config")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
}
