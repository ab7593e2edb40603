package cli

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `schema show` shows what local_user may see, like every other CLI
// command (a fresh user saw Employee and Customer.Email for a role that
// denies them).
func TestSchemaShowActsAsLocalUser(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: .nl2sql}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n" +
		"llm:\n  default: {provider: replay, recordings: " + dir + "}\n" +
		"roles:\n  analyst: {allow: [chinook], deny: [chinook.main.Employee, chinook.main.Customer.Email]}\n" +
		"users:\n  - {name: alice, roles: [analyst]}\nlocal_user: alice\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"schema", "show", "--config", cfg}, {"schema", "show", "--config", cfg, "--json"}} {
		var out bytes.Buffer
		root := newRoot(slog.New(slog.DiscardHandler), &out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		if s := out.String(); strings.Contains(s, "Employee") || strings.Contains(s, "Email") || !strings.Contains(s, "Customer") {
			t.Errorf("%v shows hidden names or lacks Customer:\n%.400s", args, s)
		}
	}
}
