package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/internal/bigcat"
)

// TestOpeningProgressWithTypeScriptSDK: a client that asks for progress
// waits for a datasource still being indexed and is told how far it got
// through notifications/progress, instead of getting DATASOURCE_INDEXING
// (progress.test.mjs).
func TestOpeningProgressWithTypeScriptSDK(t *testing.T) {
	f := setup(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "progress.sqlite")
	// Large enough that indexing it takes well over the half second
	// between two reports, even on a fast machine.
	if err := bigcat.Write(db, 800, 20); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"datasources": []any{
		map[string]any{"id": "big", "engine": "sqlite", "path": db},
		map[string]any{"id": "small", "engine": "sqlite", "path": filepath.Join(f.chinook, "chinook.sqlite")},
	}}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "progress.yaml")
	if err := os.WriteFile(config, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()
	env := append(f.env(filepath.Join(dir, "storage")), "NL2SQL_PROGRESS_CONFIG="+config)
	run(ctx, t, f.root, env, f.node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "progress.test.mjs"))
}
