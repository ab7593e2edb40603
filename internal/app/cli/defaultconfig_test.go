package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// repoRoot walks up from the package directory to the module root.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}

// A newcomer in the repository root types `nl2sql ask "…"` with no flags:
// the root nl2sql.yaml (the Chinook demo) answers it, instead of an error
// about a missing config.
func TestAskWithoutFlagsReadsTheRootConfig(t *testing.T) {
	t.Chdir(repoRoot(t))
	t.Setenv("NL2SQL_STORAGE__PATH", t.TempDir()) // keep the checkout clean
	out, err := runCLI("ask", "--json", "Which artist has released the most albums?")
	if err != nil {
		t.Fatalf("ask without --config from the root: %v\n%s", err, out)
	}
	var r struct {
		Rows       [][]any `json:"rows"`
		SubQueries []struct {
			Datasource string `json:"datasource"`
		} `json:"sub_queries"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not a JSON result: %v\n%s", err, out)
	}
	if len(r.SubQueries) != 1 || r.SubQueries[0].Datasource != "chinook" || len(r.Rows) != 1 || r.Rows[0][0] != "Iron Maiden" {
		t.Fatalf("want Iron Maiden from chinook, got sub-queries %+v rows %v", r.SubQueries, r.Rows)
	}
}

// A launcher (the MCP Inspector, a client's server entry) may own an
// option called --config, so the config file can be named in the
// server's environment instead: NL2SQL_CONFIG is --config's default. A
// --db still serves without any file, and an explicit --config wins.
func TestConfigFromTheEnvironment(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	t.Chdir(dir) // no nl2sql.yaml here
	t.Setenv("NL2SQL_STORAGE__PATH", t.TempDir())
	cfg := filepath.Join(dir, "elsewhere.yaml")
	db := filepath.Join(root, "examples", "chinook", "chinook.sqlite")
	if err := os.WriteFile(cfg, []byte("datasources:\n  - {id: from_env, engine: sqlite, path: "+db+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(plan, []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Genre","alias":"g"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	datasource := func(args ...string) string {
		t.Helper()
		out, err := runCLI(append([]string{"plan", "run", "--json"}, args...)...)
		if err != nil {
			t.Fatalf("plan run %v: %v\n%s", args, err, out)
		}
		var r struct {
			SubQueries []struct {
				Datasource string `json:"datasource"`
			} `json:"sub_queries"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.SubQueries) != 1 {
			t.Fatalf("not a JSON result (%v): %s", err, out)
		}
		return r.SubQueries[0].Datasource
	}
	t.Setenv(ConfigEnv, cfg)
	if got := datasource(plan); got != "from_env" {
		t.Errorf("with %s set and no --config: datasource %q, want from_env", ConfigEnv, got)
	}
	if got := datasource("--db", "music="+db, plan); got != "music" {
		t.Errorf("--db with %s set: datasource %q, want music", ConfigEnv, got)
	}
	if got := datasource("--config", filepath.Join(root, "examples", "chinook", "nl2sql.yaml"), plan); got != "chinook" {
		t.Errorf("an explicit --config: datasource %q, want chinook", got)
	}
}
