package sqlite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/nl2sql/nl2sql/internal/source"
)

// StateToken says, without reading the catalog or counting rows, which
// state the database file is in: a hash of its path, size and modification
// time and of the SQLite header fields that every commit or schema change
// moves (the file change counter, the page count, the schema cookie), and
// the same of the write-ahead log when there is one (it grows with every
// commit and gets new salts when it restarts, so a commit in WAL mode,
// which may leave the main file alone, changes it too). Equal tokens mean
// nothing was written in between; a token may change without a change to
// the data (a checkpoint), which only costs a full check.
//
// It returns "" (no token: check in full) while a rollback journal is
// present, since a write may be under way.
func (s *SQLite) StateToken(ctx context.Context) (string, error) {
	if fi, err := os.Stat(s.path + "-journal"); err == nil && fi.Size() > 0 {
		return "", nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "sqlite/%d\n%s\n", source.StateTokenFormat, s.path)
	if err := source.HashFile(h, s.path, 16, 100); err != nil {
		return "", err
	}
	if err := source.HashFile(h, s.path+"-wal", 0, 32); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return "sqlite:" + hex.EncodeToString(h.Sum(nil)), ctx.Err()
}
