package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/store"
)

// With a state store replicas share (PostgreSQL), every trace is also
// indexed there, whole, so a trace whose file is not on this machine
// (another replica served it) is still found; a trace in neither place is
// the typed "no trace" error.
func TestTraceIndexedInSharedStore(t *testing.T) {
	storeDSN := pgtest.Schema(t, pgtest.DSN(t))
	cfg := traceConfig(t, fmt.Sprintf("storage: {path: .nl2sql, postgres: %q}\n", storeDSN))
	a, res := askTraced(t, cfg)
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

// A server's own state store (the SQLite file beside the trace files) keeps
// no second copy of the traces: it would grow past storage.traces.max_mb,
// which bounds only the files, for no reader. The trace is read from its
// file.
func TestOwnStoreKeepsNoCopyOfTraces(t *testing.T) {
	cfg := traceConfig(t, "storage: {path: .nl2sql}\n")
	a, res := askTraced(t, cfg)
	if tr, err := ReadTrace(context.Background(), loaded(t, cfg), res.TraceID); err != nil || tr.SQL != res.SQL {
		t.Fatalf("trace from its file: %v", err)
	}
	a.Close()
	st, err := store.Open(context.Background(), a.Config.Storage.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if b, err := st.Trace(context.Background(), res.TraceID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the store holds a copy of the trace (%d bytes, err %v)", len(b), err)
	}
}

// askTraced opens cfg, asks one recorded question and waits for its trace
// to be written; the caller closes the app.
func askTraced(t *testing.T, cfg string) (*App, *engine.Result) {
	t.Helper()
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	a.Engine.FlushTraces()
	return a, res
}

// traceConfig is the Chinook config with storage as given, answering from
// the recordings.
func traceConfig(t *testing.T, storage string) string {
	t.Helper()
	rec, err := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	p := writeConfig(t, "  default: {provider: replay, recordings: "+rec+"}\n")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(b), "storage: {path: .nl2sql}\n", storage, 1)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func loaded(t *testing.T, path string) *config.Config {
	t.Helper()
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
