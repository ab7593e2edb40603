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
