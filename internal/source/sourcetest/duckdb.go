package sourcetest

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
) // the writable "duckdb" driver, to build test databases

// DuckExec runs statements on the DuckDB file at path through an ordinary
// writable connection (creating the file if needed), closed before it
// returns.
func DuckExec(t *testing.T, path string, stmts ...string) {
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

// DuckTempDB creates a DuckDB database in a temporary directory from
// statements.
func DuckTempDB(t *testing.T, stmts ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "test.duckdb")
	DuckExec(t, p, stmts...)
	return p
}
