package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The threat: the command line printed "… 225 more rows in the structured
// result", a thing the command-line user never sees, and they took the
// 50 rows shown for all there were. The line names the flag that prints
// the rest.
func TestPlanRunTextSaysWhereTheOtherRowsAre(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("NL2SQL_STORAGE__PATH", t.TempDir())
	cfg := filepath.Join(dir, "nl2sql.yaml")
	db := filepath.Join(root, "examples", "chinook", "chinook.sqlite")
	if err := os.WriteFile(cfg, []byte("datasources:\n  - {id: music, engine: sqlite, path: "+db+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(plan, []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("plan", "run", "--config", cfg, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, " more rows with --json") || strings.Contains(out, "structured result") {
		t.Errorf("the text does not say how to see the other rows:\n%s", out[max(0, len(out)-600):])
	}
}
