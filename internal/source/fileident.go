package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrFileGone marks the error of a datasource whose file was removed while
// it was open: the open handle still reads the old, unlinked file, so its
// answers would describe data that no longer exists anywhere.
var ErrFileGone = errors.New("the database file was removed")

// ErrFileReplaced marks the schema-version error of a datasource whose
// file was replaced on disk and whose engine opens a path once per process
// (DuckDB's instance cache): the new file can only be opened after the
// old handle is closed.
var ErrFileReplaced = errors.New("the database file was replaced")

// FileIdent is which file a path named when a datasource opened it. A
// database file replaced on disk (a nightly job's `mv new.db shop.db`) or
// removed leaves the open handle on the old file, which answers as before:
// comparing the path's file with this one is how a server learns it
// answers from a file nobody can see any more.
type FileIdent struct {
	path string
	fi   os.FileInfo
}

// IdentOf records the file at path, as Stat found it.
func IdentOf(path string, fi os.FileInfo) FileIdent { return FileIdent{path: path, fi: fi} }

// Moved reports whether path names another file than the one recorded (a
// file put in its place). The error wraps ErrFileGone, with CodeUnavailable,
// when nothing is at path any more.
func (f FileIdent) Moved() (bool, error) {
	if f.fi == nil {
		return false, nil
	}
	fi, err := os.Stat(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, Errorf(CodeUnavailable, fmt.Errorf("%w: %s", ErrFileGone, f.path), PathHint+"; the datasource opens again once the file is back",
			"the database file was removed while the server ran")
	case err != nil:
		return false, Errorf(CodeUnavailable, err, PathHint, "the database file cannot be read")
	}
	return !os.SameFile(fi, f.fi), nil
}

// Versioned is schema version v read from the file opened, or another
// version when moved (a file was put in its place): a server comparing
// versions then opens the new file.
func Versioned(v string, moved bool) string {
	if moved {
		return "another file/" + v
	}
	return v
}
