package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Error codes of *Error.
const (
	// CodeUnavailable: the store cannot be opened or used for a reason
	// other than those below (the directory is a file, an I/O error, the
	// store was closed).
	CodeUnavailable = "STORE_UNAVAILABLE"
	// CodeReadOnly: the directory or the file cannot be written (a
	// read-only mount, missing permission).
	CodeReadOnly = "STORE_READ_ONLY"
	// CodeFull: the disk (or the quota) is full.
	CodeFull = "STORE_FULL"
	// CodeBusy: another connection or process held the write lock for
	// longer than the busy timeout.
	CodeBusy = "STORE_BUSY"
	// CodeCorrupt: state.db is not an SQLite database, is damaged, or a
	// stored snapshot no longer hashes to its version.
	CodeCorrupt = "STORE_CORRUPT"
	// CodeTooNew: state.db was written by a newer build (its schema
	// version is above the newest migration this build knows).
	CodeTooNew = "STORE_TOO_NEW"
	// CodeNotFound: no snapshot, head or trace with that key.
	CodeNotFound = "STORE_NOT_FOUND"
	// CodeInvalid: the caller passed an unusable argument (an empty
	// datasource, a nil snapshot, an empty plan).
	CodeInvalid = "STORE_INVALID"
	// CodeCancelled: the caller's context was cancelled or ran out.
	CodeCancelled = "STORE_CANCELLED"
)

// ErrNotFound matches (with errors.Is) every *Error whose Code is
// CodeNotFound.
var ErrNotFound = &Error{Code: CodeNotFound}

// Error is the one error type the store returns. Msg says what failed and
// names the store by the path the caller gave Open (or WithDisplayPath),
// never a path the store made absolute. Err is the cause (an
// *modernc.org/sqlite.Error, a syscall.Errno, a context error), for logs and
// errors.Is/As.
type Error struct {
	Code string // one of the Code* constants
	Msg  string
	Err  error
}

// Error returns "CODE: Msg" and, when there is one, ": cause".
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Code + ": " + e.Msg + ": " + e.Err.Error()
	}
	return e.Code + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code and no Msg (a
// sentinel such as ErrNotFound).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Msg == "" && t.Err == nil && t.Code == e.Code
}

func errorf(code string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// codeOf classifies a cause: an SQLite result code, an errno from the file
// system, a context error. Anything else is CodeUnavailable.
func codeOf(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Code
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return CodeCancelled
	}
	if code, ok := pgCodeOf(err); ok {
		return code
	}
	var le *sqlite.Error
	if errors.As(err, &le) {
		switch le.Code() & 0xff {
		case sqlite3.SQLITE_READONLY:
			return CodeReadOnly
		case sqlite3.SQLITE_FULL:
			return CodeFull
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return CodeBusy
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return CodeCorrupt
		case sqlite3.SQLITE_INTERRUPT:
			return CodeCancelled
		case sqlite3.SQLITE_IOERR:
			// growing the WAL index (-shm) fails with IOERR_SHMSIZE when the
			// disk is full; a failed write with ENOSPC surfaces the same way
			if le.Code() == sqlite3.SQLITE_IOERR_SHMSIZE {
				return CodeFull
			}
		}
		return CodeUnavailable
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.EROFS, syscall.EACCES, syscall.EPERM:
			return CodeReadOnly
		case syscall.ENOSPC, syscall.EDQUOT:
			return CodeFull
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return CodeReadOnly
	}
	return CodeUnavailable
}

// reasons is the phrase Msg ends with, by code.
var reasons = map[string]string{
	CodeUnavailable: "the store is unavailable",
	CodeReadOnly:    "the store is read-only (check the directory's permissions and mount)",
	CodeFull:        "the disk is full",
	CodeBusy:        "another process held the store's write lock too long; retry later",
	CodeCorrupt:     "the store file is damaged or not an SQLite database",
	CodeCancelled:   "the operation was cancelled",
}

// fail wraps a cause of op ("write a snapshot") as an *Error naming the
// store file. A cause that already is an *Error is returned unchanged.
func (s *Store) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, sql.ErrConnDone) || err.Error() == "sql: database is closed" {
		return errorf(CodeUnavailable, err, "cannot %s in %s: the store is closed", op, s.display)
	}
	code := codeOf(err)
	return errorf(code, err, "cannot %s in %s: %s", op, s.display, reasons[code])
}
