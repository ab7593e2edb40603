package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// stmtCacheSize is how many prepared statements each connection keeps.
const stmtCacheSize = 64

// cachingConn is a modernc.org/sqlite connection that keeps the statements
// its queries prepared, least recently used out first. The same SQL run
// again (a plan asked again, a verified query with other parameters) skips
// SQLite's parsing and code generation, about 7% of a small
// run_plan's CPU. Statements are authorized when prepared, and a pool's
// connections all carry one authorizer, so a kept statement was allowed
// under the policy it runs under; SQLite prepares it again by itself when
// the schema changed.
//
// A kept statement serves one query at a time: a query of the same text
// while its rows are open prepares a statement of its own. The connection
// finalizes every kept statement before it closes, as SQLite will not
// release a file a statement is still prepared on. database/sql uses a
// connection from one goroutine at a time (rows are closed under its lock
// too), so the cache needs no lock of its own.
type cachingConn struct {
	raw   rawConn
	stmts *simplelru.LRU[string, *keptStmt]
}

// rawConn is what database/sql uses of a modernc.org/sqlite connection.
type rawConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type keptStmt struct {
	st driver.Stmt
	// busy: its rows are open; evicted: it left the cache meanwhile and is
	// finalized when they close.
	busy, evicted bool
}

func newCachingConn(c driver.Conn) (*cachingConn, error) {
	raw, ok := c.(rawConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("modernc.org/sqlite connection %T lacks a database/sql interface (see cachingConn)", c)
	}
	cc := &cachingConn{raw: raw}
	cc.stmts, _ = simplelru.NewLRU(stmtCacheSize, func(_ string, k *keptStmt) { //nolint:errcheck // a positive size never fails
		if k.busy {
			k.evicted = true
			return
		}
		k.st.Close()
	})
	return cc, nil
}

// QueryContext runs query on its kept statement, preparing and keeping it
// the first time.
func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	k, ok := c.stmts.Get(query)
	if ok && k.busy {
		return c.raw.QueryContext(ctx, query, args)
	}
	if !ok {
		st, err := c.raw.PrepareContext(ctx, query)
		if err != nil {
			return nil, err
		}
		if _, ok := st.(driver.StmtQueryContext); !ok {
			st.Close()
			return c.raw.QueryContext(ctx, query, args)
		}
		k = &keptStmt{st: st}
		c.stmts.Add(query, k)
	}
	k.busy = true
	rows, err := k.st.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		// a statement whose run failed (interrupted, busy) is not trusted
		// for the next query
		k.busy = false
		c.stmts.Remove(query)
		return nil, err
	}
	full, ok := rows.(fullRows)
	if !ok {
		rows.Close()
		k.busy = false
		c.stmts.Remove(query)
		return c.raw.QueryContext(ctx, query, args)
	}
	return &keptRows{fullRows: full, k: k}, nil
}

// fullRows is what database/sql reads of modernc.org/sqlite's rows (column
// types included).
type fullRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// keptRows frees its statement for the next query when closed.
type keptRows struct {
	fullRows
	k *keptStmt
}

func (r *keptRows) Close() error {
	err := r.fullRows.Close()
	if r.k != nil {
		r.k.busy = false
		if r.k.evicted {
			r.k.st.Close()
		}
		r.k = nil
	}
	return err
}

// Close finalizes the kept statements (none is busy: database/sql closes a
// connection only once its rows are closed), then closes the connection.
func (c *cachingConn) Close() error {
	c.stmts.Purge()
	return c.raw.Close()
}

// Unwrap is the modernc.org/sqlite connection, for the driver's own helpers
// (sqlite.Limit) and connHandle.
func (c *cachingConn) Unwrap() driver.Conn { return c.raw }

func (c *cachingConn) Prepare(query string) (driver.Stmt, error) { return c.raw.Prepare(query) }
func (c *cachingConn) Begin() (driver.Tx, error)                 { return c.raw.Begin() } //nolint:staticcheck // driver.Conn requires it
func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.raw.PrepareContext(ctx, query)
}
func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.raw.BeginTx(ctx, opts)
}
func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.raw.ExecContext(ctx, query, args)
}
func (c *cachingConn) Ping(ctx context.Context) error         { return c.raw.Ping(ctx) }
func (c *cachingConn) ResetSession(ctx context.Context) error { return c.raw.ResetSession(ctx) }
func (c *cachingConn) IsValid() bool                          { return c.raw.IsValid() }
