package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/scope"
)

// policyFromYAML loads an access policy the way the server does: a config
// file on disk, decoded and built by scope.
func policyFromYAML(t *testing.T, yaml string) *scope.Policy {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nl2sql.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := scope.New(cfg.Access())
	if err != nil {
		t.Fatal(err)
	}
	return pol
}
