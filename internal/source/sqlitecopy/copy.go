package sqlitecopy

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// CopySQLiteToDuckDB copies the SQLite database at sqlitePath into a new
// DuckDB database file at duckPath, through DuckDB's Appender: every table
// with its columns (types chosen from the declared type and the stored
// values, see openCopySource), primary key and foreign keys, names exactly
// as in SQLite (quoted: spaces, quotes, case, non-ASCII kept); then every
// view whose SQL DuckDB accepts. A key DuckDB refuses (a foreign key to a
// table in a cycle, rows that break it) is left out and logged, as is a
// view. DuckDB's own scanners are not used (none is loaded or installed).
//
// duckPath must not exist (errCopyTarget otherwise); on failure nothing is
// left there. The SQLite file is opened read-only.
func CopySQLiteToDuckDB(ctx context.Context, sqlitePath, duckPath string) (err error) {
	abs, err := filepath.Abs(duckPath)
	if err != nil {
		return fmt.Errorf("copy to duckdb: %w", err)
	}
	if _, err := os.Stat(abs); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("copy to duckdb: %w: %s exists", errCopyTarget, abs)
	}
	if strings.ContainsAny(abs, "?#") {
		return fmt.Errorf("copy to duckdb: the path %s holds '?' or '#'", abs)
	}
	src, err := openCopySource(ctx, sqlitePath)
	if err != nil {
		return fmt.Errorf("copy to duckdb: %w", err)
	}
	defer src.Close()
	conn, err := duckdb.NewConnector(abs+"?autoinstall_known_extensions=false&autoload_known_extensions=false", nil)
	if err != nil {
		return fmt.Errorf("copy to duckdb: create %s: %w", abs, err)
	}
	db := sql.OpenDB(conn)
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("copy to duckdb: %w", cerr)
		}
		if err != nil {
			os.Remove(abs)
			os.Remove(abs + ".wal")
		}
	}()
	db.SetMaxOpenConns(1)
	keyed := map[string]bool{} // tables created with their primary key
	for _, t := range copyOrder(src.tables) {
		if err := duckCopyTable(ctx, db, src, t, keyed); err != nil {
			return fmt.Errorf("copy to duckdb: table %q: %w", t.Name, err)
		}
	}
	for _, v := range src.views {
		if _, err := db.ExecContext(ctx, v.SQL); err != nil {
			copyLog("leaving out a view DuckDB does not accept", v.Name, err)
		}
	}
	return nil
}

// duckCopyTable creates t and appends its rows, with its keys if DuckDB
// takes them: the primary key and the foreign keys whose parent was created
// with its primary key (keyed), else the primary key only, else none.
func duckCopyTable(ctx context.Context, db *sql.DB, src *copySource, t *copyTable, keyed map[string]bool) error {
	type attempt struct {
		pk      []string
		fks     []string
		selfRef bool
	}
	var fks []string
	selfRef := false
	for _, fk := range t.ForeignKeys {
		if keyed[fk.RefTable] || fk.RefTable == t.Name {
			fks = append(fks, foreignKeySQL(fk, ""))
			selfRef = selfRef || fk.RefTable == t.Name
		}
	}
	var attempts []attempt
	if len(fks) > 0 {
		attempts = append(attempts, attempt{t.PrimaryKey, fks, selfRef})
	}
	if len(t.PrimaryKey) > 0 {
		attempts = append(attempts, attempt{t.PrimaryKey, nil, false})
	}
	attempts = append(attempts, attempt{})
	var last error
	for _, a := range attempts {
		if _, err := db.ExecContext(ctx, createTableSQL(t, "DUCKDB", "", a.pk, a.fks)); err != nil {
			last = err
		} else if err := duckAppend(ctx, db, src, t, a.selfRef); err != nil {
			last = err
			if _, derr := db.ExecContext(ctx, "DROP TABLE "+source.QuoteIdent(t.Name)); derr != nil {
				return errors.Join(err, derr)
			}
		} else {
			keyed[t.Name] = len(a.pk) > 0
			if len(a.fks) < len(t.ForeignKeys) || len(a.pk) < len(t.PrimaryKey) {
				copyLog("copied without some keys", t.Name, fmt.Sprintf("primary key %v, %d of %d foreign keys", a.pk, len(a.fks), len(t.ForeignKeys)))
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		copyLog("retrying with fewer keys", t.Name, last)
	}
	return last
}

// duckAppend appends every row of t through one Appender, flushing after
// each row when selfRef (t has a foreign key to itself).
func duckAppend(ctx context.Context, db *sql.DB, src *copySource, t *copyTable, selfRef bool) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		dconn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckdb connection %T is not a driver.Conn", dc)
		}
		app, err := duckdb.NewAppenderFromConn(dconn, "", t.Name)
		if err != nil {
			return err
		}
		row := make([]driver.Value, len(t.Columns))
		err = src.scan(ctx, t, func(vals []any) error {
			for i, v := range vals {
				row[i] = duckValueFor(v, t.Columns[i])
			}
			if err := app.AppendRow(row...); err != nil {
				return err
			}
			if selfRef {
				// DuckDB checks a foreign key against the rows flushed
				// before: a row's parent row must be in already.
				return app.Flush()
			}
			return nil
		})
		if cerr := app.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// duckValueFor converts one SQLite value for the Appender.
func duckValueFor(v any, c copyColumn) driver.Value {
	if v == nil {
		return nil
	}
	x, _ := convertValue(v, c) // the plan chose a kind every value fits
	if u, ok := x.(*big.Int); ok {
		return duckdb.Decimal{Width: uint8(c.Prec), Scale: uint8(c.Scale), Value: u}
	}
	return x
}

// CopySQLiteToPostgres copies the SQLite database at sqlitePath into schema
// pgSchema (created if missing; "" means public) of the PostgreSQL database
// of dsn, through COPY (pgx CopyFrom), in one transaction: every table with
// its columns (types chosen as for CopySQLiteToDuckDB), then the primary
// keys, then the foreign keys, then the views whose SQL PostgreSQL accepts
// (resolved in pgSchema); names exactly as in SQLite. A key or view
// PostgreSQL refuses is left out and logged. A table that already exists in
// pgSchema fails the copy, which then leaves nothing behind.
func CopySQLiteToPostgres(ctx context.Context, sqlitePath, dsn, pgSchema string) error {
	if pgSchema == "" {
		pgSchema = "public"
	}
	src, err := openCopySource(ctx, sqlitePath)
	if err != nil {
		return fmt.Errorf("copy to postgres: %w", err)
	}
	defer src.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("copy to postgres: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("copy to postgres: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	sch := source.QuoteIdent(pgSchema)
	for _, q := range []string{"CREATE SCHEMA IF NOT EXISTS " + sch, "SET LOCAL search_path = " + sch} {
		if _, err := tx.Exec(ctx, q); err != nil {
			return fmt.Errorf("copy to postgres: %s: %w", q, err)
		}
	}
	for _, t := range src.tables {
		if _, err := tx.Exec(ctx, createTableSQL(t, "POSTGRES", sch+".", nil, nil)); err != nil {
			return fmt.Errorf("copy to postgres: %w: table %q: %w", errCopyTarget, t.Name, err)
		}
		names := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			names[i] = c.Name
		}
		it, err := src.rows(ctx, t)
		if err != nil {
			return fmt.Errorf("copy to postgres: %w", err)
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{pgSchema, t.Name}, names, &pgCopyRows{it: it, t: t})
		it.Close()
		if err != nil {
			return fmt.Errorf("copy to postgres: table %q: %w", t.Name, err)
		}
	}
	keyed := map[string]bool{}
	for _, t := range src.tables {
		if len(t.PrimaryKey) > 0 {
			q := fmt.Sprintf("ALTER TABLE %s%s ADD PRIMARY KEY (%s)", sch+".", source.QuoteIdent(t.Name), quoteList(t.PrimaryKey))
			keyed[t.Name] = pgTry(ctx, tx, q, t.Name)
		}
	}
	for _, t := range src.tables {
		for _, fk := range t.ForeignKeys {
			if keyed[fk.RefTable] {
				pgTry(ctx, tx, fmt.Sprintf("ALTER TABLE %s%s ADD %s", sch+".", source.QuoteIdent(t.Name), foreignKeySQL(fk, sch+".")), t.Name)
			}
		}
	}
	for _, v := range src.views {
		pgTry(ctx, tx, v.SQL, v.Name)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("copy to postgres: commit: %w", err)
	}
	return nil
}

// pgTry runs q inside a savepoint; a failure is logged and undone.
func pgTry(ctx context.Context, tx pgx.Tx, q, table string) bool {
	sp, err := tx.Begin(ctx)
	if err == nil {
		if _, err = sp.Exec(ctx, q); err == nil {
			err = sp.Commit(ctx)
		} else {
			sp.Rollback(ctx)
		}
	}
	if err != nil {
		copyLog("leaving out what PostgreSQL refused", table, fmt.Errorf("%s: %w", q, err))
	}
	return err == nil
}

// pgCopyRows feeds CopyFrom from an SQLite table.
type pgCopyRows struct {
	it  *rowIter
	t   *copyTable
	out []any
}

func (r *pgCopyRows) Next() bool { return r.it.Next() }
func (r *pgCopyRows) Err() error { return r.it.Err() }

func (r *pgCopyRows) Values() ([]any, error) {
	if r.out == nil {
		r.out = make([]any, len(r.t.Columns))
	}
	for i, v := range r.it.vals {
		r.out[i] = nil
		if v == nil {
			continue
		}
		c := r.t.Columns[i]
		x, ok := convertValue(v, c)
		if !ok {
			return nil, fmt.Errorf("column %q: value %v does not fit", c.Name, v)
		}
		switch y := x.(type) {
		case *big.Int:
			x = pgtype.Numeric{Int: y, Exp: int32(-c.Scale), Valid: true}
		case string:
			x = strings.ReplaceAll(y, "\x00", "") // PostgreSQL text holds no NUL
		}
		r.out[i] = x
	}
	return r.out, nil
}

// createTableSQL is the CREATE TABLE of t for engine ("DUCKDB" or
// "POSTGRES"), its name prefixed by qualifier, with primary key pk and the
// foreign key clauses fks.
func createTableSQL(t *copyTable, engine, qualifier string, pk, fks []string) string {
	var parts []string
	for _, c := range t.Columns {
		col := source.QuoteIdent(c.Name) + " " + copyTypeName(c, engine)
		if c.NotNull {
			col += " NOT NULL"
		}
		parts = append(parts, col)
	}
	if len(pk) > 0 {
		parts = append(parts, "PRIMARY KEY ("+quoteList(pk)+")")
	}
	parts = append(parts, fks...)
	return "CREATE TABLE " + qualifier + source.QuoteIdent(t.Name) + " (\n  " + strings.Join(parts, ",\n  ") + "\n)"
}

// foreignKeySQL is fk as a table constraint, the parent prefixed by
// qualifier.
func foreignKeySQL(fk schema.ForeignKey, qualifier string) string {
	s := "FOREIGN KEY (" + quoteList(fk.Columns) + ") REFERENCES " + qualifier + source.QuoteIdent(fk.RefTable)
	if len(fk.RefColumns) > 0 {
		s += " (" + quoteList(fk.RefColumns) + ")"
	}
	return s
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = source.QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// copyTypeName is the column type of c in engine.
func copyTypeName(c copyColumn, engine string) string {
	duck := engine == "DUCKDB"
	switch c.Kind {
	case kindBigint:
		return map[bool]string{true: "BIGINT", false: "bigint"}[duck]
	case kindDouble:
		return map[bool]string{true: "DOUBLE", false: "double precision"}[duck]
	case kindDecimal:
		return fmt.Sprintf(map[bool]string{true: "DECIMAL(%d,%d)", false: "numeric(%d,%d)"}[duck], c.Prec, c.Scale)
	case kindDate:
		return map[bool]string{true: "DATE", false: "date"}[duck]
	case kindTimestamp:
		return map[bool]string{true: "TIMESTAMP", false: "timestamp"}[duck]
	case kindBool:
		return map[bool]string{true: "BOOLEAN", false: "boolean"}[duck]
	case kindBlob, kindBytes:
		return map[bool]string{true: "BLOB", false: "bytea"}[duck]
	}
	return map[bool]string{true: "VARCHAR", false: "text"}[duck]
}

// copyLog reports what a copy left out or retried.
func copyLog(msg, table string, detail any) {
	slog.Warn("copy: "+msg, "table", table, "detail", fmt.Sprint(detail))
}
