package cli

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// index exists to store snapshots, profiles and retrieval indexes. With a
// storage path that cannot be written it stored nothing, so it must exit
// non-zero with a hint, not report the datasources profiled; doctor must
// fail the storage check the same way.
func TestIndexAndDoctorFailOnUnwritableStorage(t *testing.T) {
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	storage := filepath.Join(file, "state")
	out, err := runCLI("index", "--db", db, "--storage", storage)
	if err == nil || !strings.Contains(err.Error(), "nothing could be stored") || !strings.Contains(err.Error(), "hint: set storage.path, or --storage") {
		t.Errorf("index: err %v\n%s", err, out)
	}
	out, err = runCLI("doctor", "--db", db, "--storage", storage)
	if err == nil || !strings.Contains(out, "storage: FAILED: ") {
		t.Errorf("doctor: err %v\n%s", err, out)
	}
}

// A deny pattern with a typo hides nothing; ask (and serve, through the
// same warnAccess) must say so on stderr at start, naming the role, the
// pattern and the real name, while the question still runs.
func TestAskWarnsOfUnmatchedDenyPattern(t *testing.T) {
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources: [{id: chinook, engine: sqlite, path: " + db + "}]\n" +
		"roles: {analyst: {allow: [chinook], deny: [chinook.main.Customer.Pasword, chinook.main.Employee]}}\n" +
		"users: [{name: alice, roles: [analyst]}]\nlocal_user: alice\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	root := newRoot(slog.New(slog.DiscardHandler), &out)
	root.SetErr(&stderr)
	root.SetArgs([]string{"ask", "--config", cfg, "--json", "How many customers are there?"})
	if err := root.Execute(); err != nil {
		t.Fatalf("ask: %v\n%s", err, stderr.String())
	}
	want := `nl2sql: warning: datasource chinook: role analyst: roles.analyst.deny[0] "chinook.main.Customer.Pasword" matches nothing in the schema, so it hides nothing`
	if got := stderr.String(); !strings.Contains(got, want) || strings.Contains(got, "deny[1]") {
		t.Errorf("stderr:\n%s", got)
	}
}
