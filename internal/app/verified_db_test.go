package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A user serving with --db who calls run_verified_query learns that
// verified queries need a config file, not to edit "curated: in --db",
// which is no file at all.
func TestVerifiedOnADBServerNamesTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	db := makeDB(t, "sqlite", filepath.Join(dir, "shop.sqlite"))
	cfg, err := ConfigFromDatabases([]string{db}, DatabaseOptions{Storage: filepath.Join(dir, "state")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenConfig(cfg, slog.New(slog.DiscardHandler), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, err = a.Engine.RunVerified(context.Background(), "top_customers", nil)
	ee := engine.AsError(err)
	if ee == nil || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Hint, "--config") || strings.Contains(ee.Hint, "in --db") {
		t.Errorf("run_verified_query on a --db server: %v, want a hint naming --config and a curated: key", err)
	}
}
