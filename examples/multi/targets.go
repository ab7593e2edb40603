// Package multi is the cross-datasource example: the Chinook store (SQLite,
// ../chinook/chinook.sqlite) and its sales targets (DuckDB, targets.duckdb),
// asked questions that need both, answered from hand-written recordings.
//
// targets.duckdb is built from targets.sql, not committed: run
//
//	go run ./examples/multi/buildtargets
//
// once from the repository root (no network needed), then
//
//	nl2sql --config examples/multi/nl2sql.yaml ask "Which genres beat their 2024 revenue target?"
//
// The test builds its own copy in a temporary directory.
package multi

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

//go:embed targets.sql
var targetsSQL string

// TargetsSQL is the SQL that creates and fills the targets database.
func TargetsSQL() string { return targetsSQL }

// BuildTargets creates the DuckDB database file path (which must not
// exist) from targets.sql.
func BuildTargets(ctx context.Context, path string) (err error) {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("build targets: %s exists", path)
	}
	conn, err := duckdb.NewConnector(path+"?autoinstall_known_extensions=false&autoload_known_extensions=false", nil)
	if err != nil {
		return fmt.Errorf("build targets: %w", err)
	}
	db := sql.OpenDB(conn)
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("build targets: %w", cerr)
		}
		if err != nil {
			os.Remove(path)
			os.Remove(path + ".wal")
		}
	}()
	if _, err := db.ExecContext(ctx, targetsSQL); err != nil {
		return fmt.Errorf("build targets: %w", err)
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("build targets: %w", err)
	}
	return nil
}
