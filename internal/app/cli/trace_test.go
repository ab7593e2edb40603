package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/examples/multi"
)

// run runs the CLI with args and returns stdout and the error.
func runCLI(args ...string) (string, error) {
	var out bytes.Buffer
	root := newRoot(slog.New(slog.DiscardHandler), &out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// traceID asks q with --json and returns the result's trace id.
func traceID(t *testing.T, cfg, q string) string {
	t.Helper()
	out, err := runCLI("ask", "--config", cfg, "--json", q)
	if err != nil {
		t.Fatalf("ask %q: %v", q, err)
	}
	var r struct {
		TraceID string `json:"trace_id"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.TraceID == "" {
		t.Fatalf("ask %q: %v %q", q, err, out)
	}
	return r.TraceID
}

// trace replay reruns a planned question; a trace answered from the plan
// cache has no model call to replay and says so (a fresh user got a
// misleading NO_RECORDING); a question across datasources is resolved again
// (a fresh user got DATASOURCE_NOT_FOUND for "chinook,targets").
func TestTraceReplay(t *testing.T) {
	demo, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples"))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: " + filepath.Join(dir, "store") + "}\ndatasources:\n" +
		"  - {id: chinook, engine: sqlite, path: " + filepath.Join(demo, "chinook", "chinook.sqlite") + ", description: \"Chinook digital music store\"}\n" +
		"  - {id: targets, engine: duckdb, path: " + filepath.Join(dir, "targets.duckdb") + ", description: \"Sales planning: yearly revenue targets per genre\"}\n" +
		"llm:\n  default: {provider: replay, recordings: " + filepath.Join(demo, "multi", "recordings") + "}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := multi.BuildTargets(context.Background(), filepath.Join(dir, "targets.duckdb")); err != nil {
		t.Fatal(err)
	}
	const across = "Which genres beat their 2024 revenue target?"
	planned := traceID(t, cfg, across)
	if out, err := runCLI("trace", "replay", "--config", cfg, planned); err != nil || !strings.Contains(out, "rows") {
		t.Errorf("replay of a question across datasources: %v %q", err, out)
	}
	const one = "How many customers are there in each country?"
	traceID(t, cfg, one) // planned, cached
	cached := traceID(t, cfg, one)
	if _, err := runCLI("trace", "replay", "--config", cfg, cached); err == nil || !strings.Contains(err.Error(), "INVALID_REQUEST") || !strings.Contains(err.Error(), "plan cache") {
		t.Errorf("replay of a cache hit: %v", err)
	}
}

// eval compare refuses a question without gold SQL and two configurations
// with one name, before asking anything (a fresh user found both accepted).
func TestEvalCompareRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "nl2sql.yaml"))
	noGold := filepath.Join(dir, "q.json")
	if err := os.WriteFile(noGold, []byte(`[{"question":"How many customers are there?"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI("eval", "compare", "--questions", noGold, demo); err == nil || !strings.Contains(err.Error(), "needs a question and its gold_sql") {
		t.Errorf("no gold SQL: %v", err)
	}
	good := filepath.Join(dir, "g.json")
	if err := os.WriteFile(good, []byte(`[{"question":"How many customers are there?","gold_sql":"SELECT count(*) FROM Customer"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI("eval", "compare", "--questions", good, "a="+demo, "a="+demo); err == nil || !strings.Contains(err.Error(), `two configurations are named "a"`) {
		t.Errorf("duplicate names: %v", err)
	}
}

// Every result prints a trace id, also in the no-config mode (--db) the
// README starts with; trace show refused --db ("unknown flag") while its
// own error's hint suggested it, so a trace could not be read back.
func TestTraceShowTakesDB(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	store := t.TempDir()
	out, err := runCLI("plan", "run", "--db", db, "--storage", store, "--json",
		`{"select":[{"expr":{"kind":"column","table":"g","column":"Name"}}],"from":[{"table":"Genre","alias":"g"}],"limit":2}`)
	if err != nil {
		t.Fatalf("plan run: %v", err)
	}
	var r struct {
		TraceID string `json:"trace_id"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.TraceID == "" {
		t.Fatalf("plan run: %v %q", err, out)
	}
	shown, err := runCLI("trace", "show", "--db", db, "--storage", store, r.TraceID)
	if err != nil || !strings.Contains(shown, r.TraceID) || !strings.Contains(shown, "Genre") {
		t.Fatalf("trace show --db: %v %q", err, shown)
	}
}
