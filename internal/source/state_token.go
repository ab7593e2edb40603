package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
)

// stateTokenFormat changes whenever what a token covers changes, so a
// token recorded by another version never matches.
const stateTokenFormat = 1

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
	fmt.Fprintf(h, "sqlite/%d\n%s\n", stateTokenFormat, s.path)
	if err := hashFile(h, s.path, 16, 100); err != nil {
		return "", err
	}
	if err := hashFile(h, s.path+"-wal", 0, 32); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return "sqlite:" + hex.EncodeToString(h.Sum(nil)), ctx.Err()
}

// StateToken is SQLite.StateToken for a DuckDB file: its path, size and
// modification time, the file header and both database headers (whose
// iteration count moves with every checkpoint), and the size and time of
// its write-ahead log. A writer in another process cannot commit while
// this process holds the file open, so a token read while open stands
// until the file is closed.
func (d *DuckDB) StateToken(ctx context.Context) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "duckdb/%d\n%s\n", stateTokenFormat, d.path)
	if err := hashFile(h, d.path, 0, 3*4096); err != nil {
		return "", err
	}
	if err := hashFile(h, d.path+".wal", 0, 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return "duckdb:" + hex.EncodeToString(h.Sum(nil)), ctx.Err()
}

// hashFile writes path's size and modification time, and its bytes
// [from, to), into h. A missing file is fs.ErrNotExist (h then holds a
// mark for it).
func hashFile(h hash.Hash, path string, from, to int64) error {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(h, "%s: none\n", path)
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s: %d bytes, modified %d\n", path, fi.Size(), fi.ModTime().UnixNano())
	if to <= from {
		return nil
	}
	buf := make([]byte, to-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	h.Write(buf[:n])
	return nil
}
