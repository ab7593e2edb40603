package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// FileName is the store's database file inside the directory given to Open.
const FileName = "state.db"

// DefaultBusyTimeout is how long a write waits for another connection's or
// process's write lock before failing with CodeBusy.
const DefaultBusyTimeout = 10 * time.Second

// maxConns bounds the store's connection pool. WAL lets readers run beside
// the one writer; writers queue on the busy timeout.
const maxConns = 8

// Store is the engine's state under storage.path: schema snapshots, the plan
// cache and the traces index, in one SQLite database (FileName). It is safe
// for concurrent use by many goroutines and by many processes sharing the
// directory.
type Store struct {
	db      *sql.DB
	fl      *flavor
	display string // FileName joined to the path as the caller wrote it
	now     func() time.Time
}

// Option configures Open.
type Option func(*options)

type options struct {
	display string
	now     func() time.Time
	busy    time.Duration
}

// WithDisplayPath sets how error messages name the store's directory (for
// example the storage.path exactly as nl2sql.yaml writes it, when Open is
// given a path resolved against the config's directory). The default is dir
// as given to Open.
func WithDisplayPath(p string) Option { return func(o *options) { o.display = p } }

// WithClock sets the clock that stamps created_at, profiled_at and hit
// times (tests pin it). The default is time.Now.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithBusyTimeout sets how long a write waits for the lock; ≤ 0 keeps
// DefaultBusyTimeout.
func WithBusyTimeout(d time.Duration) Option { return func(o *options) { o.busy = d } }

// Open opens the store in dir, creating dir (mode 0o755) and dir/state.db
// when missing, and migrates the database to this build's schema (see
// migrations). Every connection runs in WAL mode with synchronous=NORMAL
// (a commit survives a process crash; an OS crash may lose the last
// commits but never corrupts), foreign keys on, and the busy timeout; every
// transaction is BEGIN IMMEDIATE.
//
// Errors are *Error: CodeReadOnly when dir cannot be created or written,
// CodeFull when the disk is full, CodeUnavailable when dir (or a parent) is
// a regular file or the file cannot be opened, CodeCorrupt when state.db is
// not an SQLite database, CodeTooNew when a newer build wrote it. Messages
// name the path as the caller wrote it (see WithDisplayPath).
func Open(ctx context.Context, dir string, opts ...Option) (*Store, error) {
	o := options{display: dir, now: time.Now, busy: DefaultBusyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.busy <= 0 {
		o.busy = DefaultBusyTimeout
	}
	s := &Store{display: filepath.Join(o.display, FileName), now: o.now, fl: sqliteFlavor}
	if dir == "" {
		return nil, errorf(CodeInvalid, nil, "the state store directory is empty (set storage.path)")
	}
	if err := prepareDir(dir, o.display); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(filepath.Join(dir, FileName))
	if err != nil {
		return nil, errorf(CodeUnavailable, err, "cannot resolve the state store path %s", s.display)
	}
	db, err := sql.Open("sqlite", dsn(abs, o.busy))
	if err != nil {
		return nil, s.fail("open the store", err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	s.db = db
	err = retryBusy(ctx, o.busy, func() error {
		if err := db.PingContext(ctx); err != nil {
			return s.fail("open the store", err)
		}
		return s.migrate(ctx, s.fl.migrations)
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// retryBusy runs fn until it returns something other than CodeBusy or
// limit has passed. A new connection's switch to WAL mode (the first
// open of a fresh file, racing another process's) can fail with
// SQLITE_BUSY without waiting on the busy timeout, so Open retries it.
func retryBusy(ctx context.Context, limit time.Duration, fn func() error) error {
	deadline := time.Now().Add(limit)
	wait := 5 * time.Millisecond
	for {
		err := fn()
		var se *Error
		if err == nil || !errors.As(err, &se) || se.Code != CodeBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// dsn is the URI every connection opens: read-write, created when missing.
// The driver applies busy_timeout first, then the other settings.
func dsn(absPath string, busy time.Duration) string {
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: absPath, RawQuery: q.Encode()}
	return u.String()
}

// prepareDir creates dir and checks that a file can be created in it, so a
// read-only directory or mount fails here with a clear message rather than
// at the first write. display names dir in messages.
func prepareDir(dir, display string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		code := codeOf(err)
		if code == CodeUnavailable {
			return errorf(code, causeOf(err), "cannot create the state store directory %s (is it, or a parent, a regular file?)", display)
		}
		return errorf(code, causeOf(err), "cannot create the state store directory %s: %s", display, reasons[code])
	}
	f, err := os.CreateTemp(dir, ".state-probe-*")
	if err != nil {
		code := codeOf(err)
		return errorf(code, causeOf(err), "cannot write in the state store directory %s: %s", display, reasons[code])
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return errorf(codeOf(err), causeOf(err), "cannot remove a file in the state store directory %s", display)
	}
	return nil
}

// causeOf strips an *os.PathError (whose text holds the path as the OS saw
// it) down to its errno, which errors.Is still matches against fs.Err*.
func causeOf(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Close closes the database. The store is unusable afterwards.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return s.fail("close the store", err)
	}
	return nil
}

// Path returns the store's file as error messages name it: FileName joined
// to the display path.
func (s *Store) Path() string { return s.display }

// Shared reports whether other processes may serve from this store: true
// for PostgreSQL (replicas share it), false for the SQLite file kept in one
// server's own storage path.
func (s *Store) Shared() bool { return s.fl.name == "postgres" }

// Check verifies the whole store: on SQLite its integrity_check and
// foreign_key_check, on both backends that every stored snapshot still
// hashes to its version. It reads only. A problem is CodeCorrupt.
func (s *Store) Check(ctx context.Context) error {
	if s.fl.name == "sqlite" {
		if err := s.checkSQLite(ctx); err != nil {
			return err
		}
	}
	return s.checkSnapshots(ctx)
}

// checkSQLite runs SQLite's integrity_check and foreign_key_check.
// (PostgreSQL enforces its foreign keys and checksums pages itself.)
func (s *Store) checkSQLite(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, s.q(`PRAGMA integrity_check`)).Scan(&res); err != nil {
		return s.fail("check the store", err)
	}
	if res != "ok" {
		return errorf(CodeCorrupt, nil, "%s failed its integrity check: %s", s.display, res)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`PRAGMA foreign_key_check`))
	if err != nil {
		return s.fail("check the store", err)
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return errorf(CodeCorrupt, nil, "%s has rows whose foreign keys point nowhere", s.display)
	}
	return nil
}

// checkSnapshots verifies that every stored snapshot hashes to its version.
func (s *Store) checkSnapshots(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT datasource, version, body FROM snapshots`))
	if err != nil {
		return s.fail("check the store", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ds, version string
		var body []byte
		if err := rows.Scan(&ds, &version, &body); err != nil {
			return s.fail("check the store", err)
		}
		if got := hashHex(body); got != version {
			return errorf(CodeCorrupt, nil, "%s: snapshot %s of %q hashes to %s", s.display, version, ds, got)
		}
	}
	if err := rows.Err(); err != nil {
		return s.fail("check the store", err)
	}
	return nil
}

// stamp is the store's time format: Unix nanoseconds, UTC.
func stamp(t time.Time) int64 { return t.UnixNano() }

// unstamp reads a stamp back; a NULL (invalid) stamp is the zero Time.
func unstamp(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// tx runs fn in one BEGIN IMMEDIATE transaction, committed when fn returns
// nil and rolled back otherwise. op names the operation in errors.
func (s *Store) tx(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.fail(op, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.fail(op, err)
	}
	if err := tx.Commit(); err != nil {
		return s.fail(op, fmt.Errorf("commit: %w", err))
	}
	return nil
}
