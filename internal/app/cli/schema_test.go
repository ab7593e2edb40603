package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast/planschema"
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

// `schema plan` prints exactly the schemas get_plan_schema and the strict
// planner request carry: a tool built from its output must accept what
// Decode accepts, so the int64 bounds must not come out rounded up past
// the largest int64.
func TestSchemaPlanIsTheServedSchema(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []byte
	}{{[]string{"schema", "plan"}, planschema.Host()}, {[]string{"schema", "plan", "--strict"}, planschema.Strict()}} {
		var out bytes.Buffer
		root := newRoot(slog.New(slog.DiscardHandler), &out)
		root.SetArgs(c.args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		var got, want bytes.Buffer
		if err := json.Compact(&got, out.Bytes()); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&want, c.want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%v prints another schema than the one served (%d vs %d bytes)", c.args, got.Len(), want.Len())
		}
		if bytes.Contains(c.want, []byte("9223372036854775807")) && !strings.Contains(out.String(), "9223372036854775807") {
			t.Errorf("%v lost the exact int64 bound", c.args)
		}
	}
}
