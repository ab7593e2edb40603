package cli

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// The threat: rows written after the profile change no schema and no row
// count, so the profile stays as it was for a day, and a result that
// counts the new rows is told its value is "true for no row"; `nl2sql
// index` said "profile reused" and clearing the cache changed nothing.
// index --reprofile reads the data again, and the warning goes.
func TestIndexReprofileReadsWrittenData(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "stays.sqlite")
	state := filepath.Join(dir, "state")
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	exec("CREATE TABLE stays (id INTEGER PRIMARY KEY, status TEXT)")
	exec("INSERT INTO stays VALUES (1, 'done'), (2, 'done'), (3, 'open')")
	plan := `{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "stays", "alias": "s"}], "where": {"kind": "binary", "op": "=", "left": {"kind": "column", "table": "s", "column": "status"}, "right": {"kind": "literal", "value": "late"}}}`
	stale := "so = with it is true for no row"
	if out, err := runCLI("plan", "run", "--db", db, "--storage", state, plan); err != nil || !strings.Contains(out, stale) {
		t.Fatalf("before the write: %v\n%s", err, out)
	}
	exec("UPDATE stays SET status = 'late' WHERE id <= 2")
	if out, err := runCLI("index", "--db", db, "--storage", state); err != nil || !strings.Contains(out, "--reprofile") {
		t.Errorf("index without --reprofile: %v\n%s", err, out)
	}
	if out, err := runCLI("index", "--reprofile", "--db", db, "--storage", state); err != nil || strings.Contains(out, "profile reused") {
		t.Fatalf("index --reprofile: %v\n%s", err, out)
	}
	out, err := runCLI("plan", "run", "--db", db, "--storage", state, "--json", plan)
	if err != nil || !strings.Contains(out, `"rows": [`) || strings.Contains(out, stale) || !strings.Contains(strings.Join(strings.Fields(out), ""), `"rows":[[2]]`) {
		t.Errorf("after index --reprofile: %v\n%s", err, out)
	}
}
