package source

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the writable "duckdb" driver, to build test databases
)

// duckExec runs statements on the DuckDB file at path through an ordinary
// writable connection (creating the file if needed), closed before it
// returns.
func duckExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// duckTempDB creates a DuckDB database in a temporary directory from
// statements.
func duckTempDB(t *testing.T, stmts ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "test.duckdb")
	duckExec(t, p, stmts...)
	return p
}

// openDuckTest opens path with the adapter and closes it with the test.
func openDuckTest(t *testing.T, path string, opts Options) *DuckDB {
	t.Helper()
	d, err := OpenDuckDB(context.Background(), "test", path, opts)
	if err != nil {
		t.Fatalf("OpenDuckDB: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
