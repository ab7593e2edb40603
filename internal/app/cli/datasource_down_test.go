package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A datasource whose file is missing (or is a directory) names the file
// it looked for on the command line, in every command: a path in the
// config is relative to the config file, so without the resolved path the
// user cannot tell a typo from a config read from another directory
// (doctor named it; ask and plan run did not). The engine's own message,
// which MCP clients read, still names no path of the server's.
func TestUnavailableDatabaseFileNamesItsPath(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"cfg", "adir"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	plan := `{"from":[{"table":"t","alias":"t"}],"select":[{"expr":{"kind":"column","table":"t","column":"a"}}]}`
	for _, eng := range []string{"sqlite", "duckdb"} {
		for path, want := range map[string]string{"../data/frieght.db": "does not exist: ", "../adir": "is a directory, not a file: "} {
			cfg := filepath.Join(dir, "cfg", eng+".yaml")
			body := "storage: {path: st}\ndatasources:\n  - {id: freight, engine: " + eng + ", path: " + path + "}\n"
			if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			resolved := filepath.Join(dir, "cfg", path)
			for _, args := range [][]string{
				{"ask", "--config", cfg, "how many shipments"},
				{"plan", "run", "--config", cfg, plan},
			} {
				t.Run(eng+" "+path+" "+args[0], func(t *testing.T) {
					_, err := runCLI(args...)
					var raw, shown *engine.Error
					if !errors.As(err, &raw) || raw.Code != engine.CodeDatasourceDown || !errors.As(CommandLineError(err), &shown) {
						t.Fatalf("err %v, want %s", err, engine.CodeDatasourceDown)
					}
					if !strings.HasSuffix(shown.Msg, want+resolved) {
						t.Errorf("error %q does not name %s", shown.Msg, resolved)
					}
					if strings.Contains(raw.Msg, dir) {
						t.Errorf("the engine's message names a server path: %q", raw.Msg)
					}
				})
			}
		}
	}
}

// A host told to combine rows with a datasource that is down would write
// a second plan and a combine plan only to fail on it: the plan-it-yourself
// answer suggests run_combined_plan with the datasources that are up, and
// does not call a down one "still opening" when the question's words were
// looked for elsewhere.
func TestPlanItYourselfSuggestsNoDownDatasource(t *testing.T) {
	dir := t.TempDir()
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	next := func(t *testing.T, second string, args ...string) string {
		t.Helper()
		cfg := filepath.Join(dir, "c.yaml")
		body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n  - {id: freight, engine: sqlite, path: " + second + "}\n"
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := runCLI(append([]string{"ask", "--json", "--config", cfg}, args...)...)
		var r struct{ Next string }
		if err != nil || json.Unmarshal([]byte(out), &r) != nil || r.Next == "" {
			t.Fatalf("ask: %v %q", err, out)
		}
		return r.Next
	}
	shipments := sourcetest.TempDB(t, "CREATE TABLE shipments (id INTEGER PRIMARY KEY, weight_kg REAL)")
	if n := next(t, shipments, "how many customers"); !strings.Contains(n, "rows from freight, call run_combined_plan") {
		t.Fatalf("an open datasource is not suggested (the check below proves nothing): %q", n)
	}
	for _, args := range [][]string{
		{"how many customers"},
		{"--datasource", "chinook", "how many customers and shipments"},
	} {
		if n := next(t, filepath.Join(dir, "nofile.db"), args...); strings.Contains(n, "freight") {
			t.Errorf("%q: the down datasource is suggested: %q", args, n)
		}
	}
}
