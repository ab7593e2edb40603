package duckdb

import (
	"context"
	"fmt"

	"github.com/nl2sql/nl2sql/internal/source"
)

// SchemaVersion never moves: no other process can change the schema of a
// file this one holds open. But a rename does not care (a nightly job's
// `mv new.duckdb shop.duckdb`), and the open handle would go on reading
// the old file: that is an error wrapping source.ErrFileReplaced, since
// the driver opens a path once per process and hands the old database to
// a second open until the first is closed. A removed file is an error
// wrapping source.ErrFileGone.
func (d *DuckDB) SchemaVersion(ctx context.Context) (string, error) {
	moved, err := d.ident.Moved()
	if err != nil {
		return "", err
	}
	if moved {
		return "", source.Errorf(source.CodeUnavailable, fmt.Errorf("%w: %s", source.ErrFileReplaced, d.path), "send the request again", "the database file was replaced while the server ran").Temporary()
	}
	return "duckdb", ctx.Err()
}

// FileMoved reports, with one stat of the path, whether another file was
// put in the database's place since it opened (an error wrapping
// source.ErrFileGone when none is there): cheap enough for a server to ask
// before every statement.
func (d *DuckDB) FileMoved() (bool, error) { return d.ident.Moved() }
