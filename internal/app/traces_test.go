package app

import (
	"context"
	"encoding/json"
	"github.com/nl2sql/nl2sql/internal/config"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// Every trace is also indexed in the state store (whole, as JSON), so a
// trace whose file is not on this machine (another replica served it, on
// a shared store) is still found; a trace in neither place is the typed
// "no trace" error.
func TestTraceIndexedInStore(t *testing.T) {
	rec, err := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, "  default: {provider: replay, recordings: "+rec+"}\n")
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil {
		t.Fatal(err)
	}
	a.Engine.FlushTraces()
	fromFile, err := ReadTrace(context.Background(), loaded(t, cfg), res.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if err := os.RemoveAll(filepath.Join(a.Config.Storage.Path, "traces")); err != nil {
		t.Fatal(err)
	}
	fromStore, err := ReadTrace(context.Background(), loaded(t, cfg), res.TraceID)
	if err != nil {
		t.Fatalf("trace not found in the store: %v", err)
	}
	f, _ := json.Marshal(fromFile)
	s, _ := json.Marshal(fromStore)
	if string(f) != string(s) || fromStore.SQL != res.SQL {
		t.Errorf("store copy differs:\n%s\n%s", f, s)
	}
	_, err = ReadTrace(context.Background(), loaded(t, cfg), "0123456789abcdef0123456789abcdef")
	if ee := engine.AsError(err); ee == nil || ee.Code != engine.CodeInvalidRequest {
		t.Errorf("unknown trace: %v", err)
	}
}

func loaded(t *testing.T, path string) *config.Config {
	t.Helper()
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
