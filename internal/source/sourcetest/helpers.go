package sourcetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"

	_ "modernc.org/sqlite" // the writable "sqlite" driver, to build test databases
)

// SharedPath resolves a file under ../shared beside the repository root
// (four levels up from this package) and skips the test when it is absent,
// or fails it when the environment variable CI is set.
func SharedPath(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		SkipOrFail(t, "../shared not found: %s (%v)", rel, err)
	}
	return p
}

// SkipOrFail skips the test for a missing prerequisite, or fails it when the
// environment variable CI is non-empty (CI provides every prerequisite).
func SkipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but "+format, args...)
	}
	t.Skipf(format, args...)
}

// CopyToTemp copies src into a fresh temporary directory and returns the
// copy's path.
func CopyToTemp(t *testing.T, src string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// ExecWritable runs statements on path through an ordinary writable
// connection (creating the file if needed).
func ExecWritable(t *testing.T, path string, stmts ...string) {
	t.Helper()
	execWith(t, "sqlite", path, stmts)
}

// execWith runs statements on path through the database/sql driver named
// driver, closed before it returns.
func execWith(t *testing.T, driver, path string, stmts []string) {
	t.Helper()
	db, err := sql.Open(driver, path)
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

// TempDB creates a database in a temporary directory from statements.
func TempDB(t *testing.T, stmts ...string) string {
	t.Helper()
	return tempDBWith(t, "sqlite", "test.db", stmts)
}

// tempDBWith creates the database file name in a temporary directory
// through driver, from statements.
func tempDBWith(t *testing.T, driver, name string, stmts []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	execWith(t, driver, p, stmts)
	return p
}

// FileSum is the hex sha256 of a file's bytes.
func FileSum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// DirListing names the entries of dir with their sizes and times.
func DirListing(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = fi.ModTime().Format(time.RFC3339Nano) + " " + fi.Mode().String() + " " + strconv.FormatInt(fi.Size(), 10)
	}
	return m
}

// AsError returns err as *Error or fails the test.
func AsError(t *testing.T, err error) *source.Error {
	t.Helper()
	var se *source.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *source.Error", err, err)
	}
	return se
}

// OpenWritableConn opens one ordinary writable connection to path, closed
// with the test.
func OpenWritableConn(t *testing.T, path string) *sql.Conn {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
