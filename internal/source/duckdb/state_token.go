package duckdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/nl2sql/nl2sql/internal/source"
)

// StateToken is SQLite.StateToken for a DuckDB file: its path, size and
// modification time, the file header and both database headers (whose
// iteration count moves with every checkpoint), and the size and time of
// its write-ahead log. A writer in another process cannot commit while
// this process holds the file open, so a token read while open stands
// until the file is closed.
func (d *DuckDB) StateToken(ctx context.Context) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "duckdb/%d\n%s\n", source.StateTokenFormat, d.path)
	if err := source.HashFile(h, d.path, 0, 3*4096); err != nil {
		return "", err
	}
	if err := source.HashFile(h, d.path+".wal", 0, 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return "duckdb:" + hex.EncodeToString(h.Sum(nil)), ctx.Err()
}
