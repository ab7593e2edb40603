package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad writes arbitrary bytes as nl2sql.yaml and loads them: Load
// returns a config or an error, never panics or hangs. Seeds are in
// testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "examples", "chinook", "nl2sql.yaml")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("datasources:\n  - {id: a, engine: sqlite, path: a.sqlite}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "nl2sql.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(p)
		if err == nil && cfg == nil {
			t.Fatal("nil config without an error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}
