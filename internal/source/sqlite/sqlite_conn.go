package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sqlitefold"
	"github.com/nl2sql/nl2sql/internal/source/sqlitestats"
	"github.com/nl2sql/nl2sql/internal/source/sqlitezone"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteDSN is the URI every SQLite connection opens: the file read-only
// (mode=ro: SQLite never writes it and never creates a missing one), with
// double-quoted string literals off (_dqs=0, so a misspelt "identifier" is an
// error rather than a string) and defensive mode on (_defensive=1).
func sqliteDSN(absPath string) string {
	u := url.URL{Scheme: "file", Path: absPath, RawQuery: "mode=ro&_dqs=0&_defensive=1"}
	return u.String()
}

// sqliteSetup runs on each new connection before the authorizer is
// installed; afterwards no PRAGMA can run on it.
func sqliteSetup(busy time.Duration) []string {
	return []string{
		"PRAGMA query_only = ON",          // no write, whatever the file mode
		"PRAGMA case_sensitive_like = ON", // LIKE matches case as PostgreSQL's does
		"PRAGMA trusted_schema = OFF",     // views and triggers may not call unsafe functions
		fmt.Sprintf("PRAGMA busy_timeout = %d", busy.Milliseconds()),
	}
}

// sqlitePool is one database/sql pool whose every connection carries the
// setup pragmas and one policy's authorizer. Each pool has its own
// modernc Driver, so its connection hook touches no other SQLite user in the
// process (the engine's state store, tests).
type sqlitePool struct {
	db *sql.DB
	// denials maps each physical connection's sqlite3 handle to the last
	// action its authorizer denied. A closed connection's entry stays until
	// a new connection reuses its handle; connections live as long as the
	// pool, so that is rare.
	denials sync.Map // uintptr → *denial
}

// denial records the last action an authorizer refused on one connection.
type denial struct {
	mu   sync.Mutex
	what string
}

func (d *denial) set(s string) { d.mu.Lock(); d.what = s; d.mu.Unlock() }
func (d *denial) get() string  { d.mu.Lock(); defer d.mu.Unlock(); return d.what }

func openSQLitePool(dsn string, policy sqlitePolicy, busy time.Duration, maxConns int) *sqlitePool {
	p := &sqlitePool{}
	d := &sqlite.Driver{}
	// the standard deviation and variance aggregates plans render to; an
	// error (none on a fresh driver) fails every connection
	regErr := errors.Join(sqlitestats.Register(d),
		// a plan's UPPER and LOWER fold every letter, as on DuckDB and PostgreSQL
		sqlitefold.Register(d),
		// a plan's AT_TIME_ZONE reads the tz database, as theirs do
		sqlitezone.Register(d))
	d.RegisterConnectionHook(func(c sqlite.ExecQuerierContext, _ string) error {
		if regErr != nil {
			return regErr
		}
		for _, q := range sqliteSetup(busy) {
			if _, err := c.ExecContext(context.Background(), q, nil); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		h, err := connHandle(c)
		if err != nil {
			return err
		}
		reg, ok := c.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("modernc.org/sqlite connection %T has no authorizer", c)
		}
		den := &denial{}
		p.denials.Store(h, den)
		return reg.RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, a1, a2, dbName, trig string) sqlite.AuthorizerReturnCode {
			rc := policy.authorize(action, a1, a2, dbName, trig)
			if rc != sqlite.AuthorizerOK {
				den.set(describeAction(action, a1, a2))
			}
			return rc
		})
	})
	p.db = sql.OpenDB(connector{d: d, dsn: dsn})
	p.db.SetMaxOpenConns(maxConns)
	p.db.SetMaxIdleConns(maxConns)
	return p
}

// lastDenial returns what the authorizer of the connection with handle h
// refused since the last resetDenial, "" when nothing.
func (p *sqlitePool) lastDenial(h uintptr) string {
	if d, ok := p.denials.Load(h); ok {
		return d.(*denial).get()
	}
	return ""
}

// resetDenial forgets what the connection with handle h refused before.
func (p *sqlitePool) resetDenial(h uintptr) {
	if d, ok := p.denials.Load(h); ok {
		d.(*denial).set("")
	}
}

// connector opens connections of one DSN through one Driver.
type connector struct {
	d   *sqlite.Driver
	dsn string
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dc, err := c.d.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return newCachingConn(dc)
}

func (c connector) Driver() driver.Driver { return c.d }

// connHandle returns the sqlite3* handle of a modernc.org/sqlite connection.
//
// modernc.org/sqlite interrupts a statement when its context ends only while
// QueryContext runs (the first step); later steps in rows.Next run on with
// no interrupt, so one slow step (a filter that rarely matches, an
// unbounded recursive CTE) would outlive any timeout. The driver exposes no
// interrupt, so this reads the handle from its unexported db field and
// interruptOnDone calls sqlite3_interrupt itself. The hook checks the field
// on every new connection: a driver release that renames it makes opening
// fail with this error, not queries hang.
func connHandle(c any) (uintptr, error) {
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("db"); f.IsValid() && f.Kind() == reflect.Uintptr && f.Uint() != 0 {
			return uintptr(f.Uint()), nil
		}
	}
	return 0, fmt.Errorf("cannot find the sqlite3 handle of %T (modernc.org/sqlite changed; see connHandle)", c)
}

// interruptOnDone calls sqlite3_interrupt on handle once ctx is done, until
// the returned stop is called. stop waits for an interrupt in progress, so
// after it returns no interrupt can reach a later statement.
func interruptOnDone(ctx context.Context, handle uintptr) (stop func()) {
	var mu sync.Mutex
	stopped := false
	cancel := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			tls := libc.NewTLS()
			sqlite3.Xsqlite3_interrupt(tls, handle)
			tls.Close()
		}
	})
	return func() {
		cancel()
		mu.Lock()
		stopped = true
		mu.Unlock()
	}
}

// handleOf returns the handle of the connection behind c.
func handleOf(c *sql.Conn) (uintptr, error) {
	var h uintptr
	err := c.Raw(func(dc any) error {
		if cc, ok := dc.(*cachingConn); ok {
			dc = cc.raw
		}
		var err error
		h, err = connHandle(dc)
		return err
	})
	return h, err
}

// describeAction names a denied authorizer action for an error message.
func describeAction(action sqlite.AuthorizerActionCode, a1, a2 string) string {
	switch action {
	case sqlite.AuthInsert, sqlite.AuthUpdate, sqlite.AuthDelete:
		if a1 == "sqlite_master" || a1 == "sqlite_temp_master" || a1 == "sqlite_schema" {
			return "a schema change"
		}
	}
	switch action {
	case sqlite.AuthFunction:
		return fmt.Sprintf("function %s()", a2)
	case sqlite.AuthPragma:
		return "PRAGMA " + a1
	case sqlite.AuthRead:
		return "reading " + a1
	case sqlite.AuthInsert:
		return "INSERT into " + a1
	case sqlite.AuthUpdate:
		return "UPDATE of " + a1
	case sqlite.AuthDelete:
		return "DELETE from " + a1
	case sqlite.AuthAttach:
		return "ATTACH (or VACUUM INTO)"
	case sqlite.AuthDetach:
		return "DETACH"
	case sqlite.AuthTransaction:
		return "transaction control (" + a1 + ")"
	case sqlite.AuthSavepoint:
		return "SAVEPOINT"
	case sqlite.AuthCreateTable, sqlite.AuthCreateTempTable, sqlite.AuthCreateIndex, sqlite.AuthCreateTempIndex,
		sqlite.AuthCreateView, sqlite.AuthCreateTempView, sqlite.AuthCreateTrigger, sqlite.AuthCreateTempTrigger,
		sqlite.AuthCreateVTable:
		return "CREATE " + a1
	case sqlite.AuthDropTable, sqlite.AuthDropTempTable, sqlite.AuthDropIndex, sqlite.AuthDropTempIndex,
		sqlite.AuthDropView, sqlite.AuthDropTempView, sqlite.AuthDropTrigger, sqlite.AuthDropTempTrigger,
		sqlite.AuthDropVTable:
		return "DROP " + a1
	case sqlite.AuthAlterTable:
		return "ALTER TABLE " + a2
	case sqlite.AuthAnalyze:
		return "ANALYZE"
	case sqlite.AuthReindex:
		return "REINDEX"
	}
	return fmt.Sprintf("action %d", action)
}

// sqliteError maps a modernc.org/sqlite error onto *Error. denied is what
// the authorizer refused while the statement compiled, "" when nothing:
// SQLite reports a denied function as a plain SQLITE_ERROR, so a denial
// decides the code, not the result code alone.
func sqliteError(err error, denied string) *source.Error {
	if denied != "" {
		return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the read-only policy refused %s", denied)
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %v", err)
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_AUTH:
		return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the read-only policy refused the statement")
	case sqlite3.SQLITE_READONLY:
		return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the database is read-only")
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return source.Errorf(source.CodeUnavailable, err, "another process holds a lock on the database; retry later", "the database is locked").Temporary()
	case sqlite3.SQLITE_NOTADB:
		return source.Errorf(source.CodeUnavailable, err, source.PathHint, "the file is not an SQLite database")
	case sqlite3.SQLITE_CORRUPT:
		return source.Errorf(source.CodeUnavailable, err, "restore the database file from a good copy", "the database file is corrupt")
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_PERM, sqlite3.SQLITE_NOTFOUND:
		return source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database file cannot be read")
	case sqlite3.SQLITE_ERROR:
		if strings.Contains(se.Error(), "integer overflow") {
			// abs() and sum() beyond int64, and the renderer's range check
			return source.Errorf(source.CodeOverflow, err, source.OverflowHint, "the query failed: integer overflow")
		}
		if e := source.SeveralRows(se.Error(), err); e != nil {
			return e // the renderer's check of a scalar subquery
		}
		if e := source.DoubleOverflow(se.Error(), err); e != nil {
			return e // the renderer's range check of a float result
		}
		if e := source.DecimalOverflow(se.Error(), err); e != nil {
			return e // the renderer's range check of a decimal result
		}
		if msg := se.Error(); strings.Contains(msg, "no such column") || strings.Contains(msg, "no such table") {
			// validated SQL names only what the snapshot holds: the file
			// changed under a running server
			return source.SchemaChanged(err, "the query failed: %s", msg)
		}
	case sqlite3.SQLITE_TOOBIG:
		return source.Errorf(source.CodeQueryFailed, err, "select fewer or shorter values", "a value is larger than %d MiB", source.MaxValueBytes>>20)
	}
	return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %s", se.Error())
}
