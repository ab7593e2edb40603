package cli

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
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

// The threat: a SQLite file with a damaged page opens, and its schema
// reads, so doctor said ok; then every question that reads the page
// fails with "malformed", or, worse, reads what is left of it. Doctor
// must check the pages and say the file is damaged and what to do.
func TestDoctorFindsADamagedFile(t *testing.T) {
	stmts := []string{"CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"}
	for i := range 400 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO notes VALUES (%d, '%s')", i, strings.Repeat("x", 200)))
	}
	db := sourcetest.TempDB(t, stmts...)
	if out, err := runCLI("doctor", "--db", db, "--storage", t.TempDir()); err != nil {
		t.Fatalf("doctor on a sound file: %v\n%s", err, out)
	}
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// overwrite the middle of a leaf page of the table: its cells' sizes
	// and overflow page numbers become garbage
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, 1500), 4096*10+200); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := runCLI("doctor", "--db", db, "--storage", t.TempDir())
	if err == nil || !strings.Contains(out, "FAILED: DATASOURCE_UNAVAILABLE: the database file is damaged") || !strings.Contains(out, "good copy") {
		t.Errorf("doctor on a damaged file: err %v\n%s", err, out)
	}
}
