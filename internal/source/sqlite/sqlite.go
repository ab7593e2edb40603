package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/source"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Read-only holds three times over: the file is opened with mode=ro, every
// connection runs PRAGMA query_only=ON, and an authorizer (sqlitePolicy)
// refuses at compile time anything but reading. Query also refuses text that
// is not exactly one SELECT, WITH or VALUES statement before SQLite sees it.
//
// Two pools share the file: queries run under the strict policy; Snapshot
// and Profile run on a one-connection pool whose policy also allows the
// read-only schema pragmas (pragma_table_xinfo and friends), which the query
// policy denies along with every other PRAGMA.
type SQLite struct {
	id    string
	opts  source.Options
	query *sqlitePool
	meta  *sqlitePool
	path  string // absolute, for StateToken
	ident source.FileIdent
}

// OpenSQLite opens the SQLite database file at path (made absolute) as
// datasource id. It fails with CodeUnavailable when the file is missing, is a
// directory, is not an SQLite database, or cannot be read; a missing file is
// never created. ctx bounds the check that reads the schema table (as does
// the larger of Options.Timeout and 10s).
//
// A reader waits for another process's lock up to half the timeout (at most
// 5s) before the query fails with CodeUnavailable.
func OpenSQLite(ctx context.Context, id, path string, opts source.Options) (*SQLite, error) {
	opts = opts.WithDefaults()
	return openSQLite(ctx, id, path, opts, min(opts.Timeout/2, 5*time.Second))
}

// openSQLite is OpenSQLite with the lock wait (busy_timeout) given.
func openSQLite(ctx context.Context, id, path string, opts source.Options, busy time.Duration) (*SQLite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database path is not usable")
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database file does not exist")
	case err != nil:
		return nil, source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database file cannot be read")
	case fi.IsDir():
		return nil, source.Errorf(source.CodeUnavailable, &fs.PathError{Op: "open", Path: abs, Err: syscall.EISDIR}, source.PathHint, "the database path is a directory, not a file")
	}
	dsn := sqliteDSN(abs)
	s := &SQLite{
		id:    id,
		opts:  opts,
		path:  abs,
		ident: source.IdentOf(abs, fi),
		query: openSQLitePool(dsn, sqlitePolicy{}, busy, source.QueryConns),
		meta:  openSQLitePool(dsn, sqlitePolicy{introspection: true}, busy, 1),
	}
	for _, p := range []*sqlitePool{s.meta, s.query} {
		if err := s.check(ctx, p); err != nil {
			s.Close()
			if e, _ := source.FileEngine(abs); e == "duckdb" {
				return nil, source.WrongEngine(err, "duckdb", "sqlite")
			}
			return nil, err
		}
	}
	return s, nil
}

// check reads the schema table once through p, which opens a connection
// (running its hook) and makes SQLite read the file header.
func (s *SQLite) check(ctx context.Context, p *sqlitePool) error {
	limit := max(s.opts.Timeout, source.OpenCheckTimeout)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var n int64
	if err := p.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		if e := source.CtxError(ctx, limit); e != nil {
			return e
		}
		var se *sqlite.Error
		if !errors.As(err, &se) {
			// The connection hook failed: a driver problem, not the file's.
			return source.Errorf(source.CodeUnavailable, err, "see the server log", "the database connection could not be set up")
		}
		return sqliteError(err, "")
	}
	return nil
}

// ID returns the datasource id.
func (s *SQLite) ID() string { return s.id }

// Dialect returns "sqlite".
func (s *SQLite) Dialect() string { return schema.DialectSQLite }

// Close closes both pools.
func (s *SQLite) Close() error {
	return errors.Join(s.query.db.Close(), s.meta.db.Close())
}

// Query runs one read-only statement with args bound to its ? or ?NNN
// parameters and returns at most maxRows rows (Options.RowLimit when
// maxRows ≤ 0 or larger), setting Truncated when another row exists. It
// reads at most maxRows+1 rows, stops at Options.Timeout or when ctx ends
// (TIMEOUT, CANCELLED), and refuses with CodeReadOnly any text that is not
// one SELECT, WITH or VALUES statement and anything the policy denies.
func (s *SQLite) Query(ctx context.Context, sqlText string, args []any, maxRows int) (*source.Result, error) {
	if err := checkStatement(sqlText); err != nil {
		return nil, err
	}
	if maxRows <= 0 || maxRows > s.opts.RowLimit {
		maxRows = s.opts.RowLimit
	}
	return s.run(ctx, s.query, sqlText, args, maxRows)
}

// RawRows runs sqlText on the query pool and returns the driver's rows as
// they are: not encoded, not capped and with no timeout, for copying a
// database whole (internal/source/sqlitecopy). The statement gate is not
// applied; the read-only open, query_only and the authorizer still are.
func (s *SQLite) RawRows(ctx context.Context, sqlText string) (*sql.Rows, error) {
	return s.query.db.QueryContext(ctx, sqlText)
}

// checkStatement is the statement gate of Query (see CheckStatement).
func checkStatement(sqlText string) *source.Error {
	return source.CheckStatement(schema.DialectSQLite, sqlText)
}

// run executes sqlText on one connection of p under the timeout and
// returns at most maxRows rows in the result encoding.
func (s *SQLite) run(ctx context.Context, p *sqlitePool, sqlText string, args []any, maxRows int) (*source.Result, error) {
	raw, err := s.fetch(ctx, p, sqlText, args, maxRows)
	if err != nil {
		return nil, err
	}
	return encode(raw), nil
}

// fetch executes sqlText on one connection of p under the timeout and reads
// at most maxRows rows, and one more to learn whether rows were left. While
// it runs, the end of ctx or of the timeout interrupts the statement, in
// rows.Next too (see connHandle).
func (s *SQLite) fetch(ctx context.Context, p *sqlitePool, sqlText string, args []any, maxRows int) (*source.RawResult, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	var h uintptr
	fail := func(err error) error {
		if e := source.CtxError(ctx, s.opts.Timeout); e != nil {
			return e
		}
		var se *source.Error
		if errors.As(err, &se) {
			return se
		}
		return sqliteError(err, p.lastDenial(h))
	}

	conn, err := p.db.Conn(ctx)
	if err != nil {
		return nil, fail(err)
	}
	defer conn.Close()
	if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, source.MaxValueBytes); err != nil {
		return nil, fail(err)
	}
	if h, err = handleOf(conn); err != nil {
		return nil, fail(err)
	}
	p.resetDenial(h)
	stop := interruptOnDone(ctx, h)
	defer stop()

	rows, err := conn.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return nil, fail(err)
	}
	defer rows.Close()
	raw, err := readRows(rows, maxRows)
	if err != nil {
		return nil, fail(err)
	}
	return raw, nil
}

// readRows reads at most maxRows rows, and one more to set truncated.
func readRows(rows *sql.Rows, maxRows int) (*source.RawResult, error) {
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	raw := &source.RawResult{Names: names, Decls: make([]string, len(cts))}
	for i, ct := range cts {
		raw.Decls[i] = ct.DatabaseTypeName()
	}
	for rows.Next() {
		if len(raw.Rows) == maxRows {
			raw.Truncated = true
			break
		}
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		raw.Rows = append(raw.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return raw, rows.Close()
}

// encode applies the result encoding. A column's type comes from its
// declared type, else from its first non-NULL value.
func encode(r *source.RawResult) *source.Result {
	res := &source.Result{Columns: r.Names, ColumnTypes: make([]planast.Type, len(r.Names)), Rows: make([][]any, 0, len(r.Rows)), Truncated: r.Truncated}
	cols := make([]source.Column, len(r.Names))
	mixed := make([]bool, len(r.Names))
	for i, decl := range r.Decls {
		cols[i] = sqliteColumn(decl)
		if decl == "" {
			cols[i].Type = source.FirstValueType(r.Rows, i)
		}
		cols[i].Type, mixed[i] = storedType(r.Rows, i, cols[i].Type)
		res.ColumnTypes[i] = cols[i].Type
	}
	for _, row := range r.Rows {
		out := make([]any, len(row))
		for i, v := range row {
			if b, ok := v.([]byte); ok && mixed[i] {
				out[i] = cellfmt.Binary(b)
				continue
			}
			out[i] = source.EncodeValue(v, cols[i])
		}
		res.Rows = append(res.Rows, out)
	}
	return res
}

// storedType is the type of result column i as its values are stored. SQLite
// keeps a storage class per value, whatever the declared type, and a blob
// column's values are read back from base64 while any other column's are
// read as they are: so a column holding only blobs is a blob column (a
// TEXT column of blobs showed their base64 as if it were stored text), one
// declared BLOB holding none is of its values' type (its text was decoded
// as base64), and one mixing blobs with other values is text, each blob
// written as its placeholder (mixed: the structured value too, as no
// single column type reads both).
func storedType(rows [][]any, i int, declared planast.Type) (t planast.Type, mixed bool) {
	var blobs, others bool
	first := planast.TypeUnknown
	for _, r := range rows {
		switch r[i].(type) {
		case nil:
		case []byte:
			blobs = true
		default:
			if !others {
				first = source.FirstValueType([][]any{r}, i)
			}
			others = true
		}
	}
	switch {
	case blobs && others:
		return planast.TypeText, true
	case blobs:
		return planast.TypeBlob, false
	case others && declared == planast.TypeBlob:
		return first, false
	}
	return declared, false
}

// sqliteColumn is the encoding column of an SQLite declared type.
func sqliteColumn(decl string) source.Column {
	c := source.Column{Type: schema.NormalizeType(schema.DialectSQLite, decl), Scale: -1}
	if sc, ok := schema.DecimalScale(decl); ok && c.Type == planast.TypeDecimal {
		c.Scale = sc
	}
	return c
}
