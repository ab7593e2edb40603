package sourcetest

import (
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
) // the writable "duckdb" driver, to build test databases

// DuckExec runs statements on the DuckDB file at path through an ordinary
// writable connection (creating the file if needed), closed before it
// returns.
func DuckExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	execWith(t, "duckdb", path, stmts)
}

// DuckTempDB creates a DuckDB database in a temporary directory from
// statements.
func DuckTempDB(t *testing.T, stmts ...string) string {
	t.Helper()
	return tempDBWith(t, "duckdb", "test.duckdb", stmts)
}
