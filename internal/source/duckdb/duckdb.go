package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/nl2sql/nl2sql/internal/source"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// duckdbSettings are the settings every DuckDB datasource starts with, as
// DSN options (DuckDB applies them before the database opens, whatever
// their order), and the value current_setting reports for each once open.
// OpenDuckDB reads every one back and refuses to go on unless all hold.
//
//   - access_mode=READ_ONLY: the file is opened read-only (never created,
//     never written, no WAL); any write, DDL on the file or CHECKPOINT fails;
//   - enable_external_access=false: no other file and no network: read_csv,
//     read_text, glob, COPY, EXPORT, ATTACH, INSTALL and LOAD are refused;
//   - autoinstall/autoload_known_extensions=false, allow_community_extensions
//     =false: no extension arrives or loads behind a query's back;
//   - max_temp_directory_size=0B: no spilling to a temporary directory, so
//     no file appears beside the database;
//   - TimeZone=UTC (set once open, as DuckDBInUTC): the time zone of
//     TIMESTAMPTZ arithmetic and parts;
//   - lock_configuration=true (set last): SET, RESET and PRAGMA cannot
//     change any of this afterwards.
var duckdbSettings = append([]DuckDBSetting{{"access_mode", "READ_ONLY", "read_only"}}, DuckDBSandbox...)

// DuckDBInUTC sets DuckDB's time zone to UTC, as the PostgreSQL adapter's
// sessions are: with the machine's zone (DuckDB's default) a
// TIMESTAMPTZ's day, hour and month were the server's local ones while
// its value reads in UTC, and differed between two machines. The time
// zone needs the ICU extension, which loads after the DSN's options are
// applied, so it is set once open, before the configuration is locked.
var DuckDBInUTC = DuckDBSetting{"TimeZone", "UTC", "UTC"}

// duckdbLocked are the settings OpenDuckDB sets once open, in order.
var duckdbLocked = []DuckDBSetting{DuckDBInUTC, {"lock_configuration", "true", "true"}}

// DuckDBSetting is one DuckDB setting: the value given in the DSN and the
// value current_setting reports once it holds.
type DuckDBSetting struct{ Name, Value, Want string }

// SetGlobal is the statement that sets s for the whole database, for a
// setting applied once the database is open.
func (s DuckDBSetting) SetGlobal() string { return "SET GLOBAL " + s.Name + " = '" + s.Value + "'" }

// DuckDBSandbox are the settings that keep any DuckDB database of ours
// (datasources, and duckcompute's scratch databases) away from files, the
// network and extensions, and from spilling to disk.
var DuckDBSandbox = []DuckDBSetting{
	{"enable_external_access", "false", "false"},
	{"autoinstall_known_extensions", "false", "false"},
	{"autoload_known_extensions", "false", "false"},
	{"allow_community_extensions", "false", "false"},
	{"max_temp_directory_size", "0B", "0 bytes"},
}

// DuckDBSettingsQuery is the SELECT that reads the settings back, one
// VARCHAR column each, in order.
func DuckDBSettingsQuery(settings []DuckDBSetting) string {
	sel := make([]string, len(settings))
	for i, s := range settings {
		sel[i] = fmt.Sprintf("CAST(current_setting('%s') AS VARCHAR)", s.Name)
	}
	return "SELECT " + strings.Join(sel, ", ")
}

// DuckDBSettingsMismatch compares values read back with what settings
// want; nil when all hold.
func DuckDBSettingsMismatch(settings []DuckDBSetting, got []string) error {
	for i, s := range settings {
		if i >= len(got) || !strings.EqualFold(got[i], s.Want) {
			v := ""
			if i < len(got) {
				v = got[i]
			}
			return fmt.Errorf("duckdb setting %s = %q, want %q", s.Name, v, s.Want)
		}
	}
	return nil
}

// DuckDB is the adapter for one DuckDB database file, opened read-only at
// the engine level (see duckdbSettings). It is safe for concurrent use.
//
// Query accepts only text that is exactly one SELECT, WITH or VALUES
// statement (the lexical gate shared with SQLite), and below that prepares
// it with the driver's single-statement Prepare, so a text that hides a
// second statement is refused rather than run statement by statement.
//
// The driver materialises each result inside DuckDB before the first row is
// read (duckdb-go runs a query to completion), so Query runs a SELECT under
// an outer LIMIT maxRows+1 (see prepareCapped): DuckDB produces at most
// the rows it returns and one more.
//
// Profiles are cached while the adapter is open: a file opened read-only
// holds DuckDB's shared lock, so no process can write it meanwhile, and
// profiling again reads nothing.
type DuckDB struct {
	id       string
	opts     source.Options
	db       *sql.DB
	profiles source.ProfileCache
	path     string // absolute, for StateToken
	ident    source.FileIdent
}

// OpenDuckDB opens the DuckDB database file at path (made absolute) as
// datasource id, read-only. It fails with CodeUnavailable when the file is
// missing (it is never created), is a directory, is not a DuckDB database
// (or one of another storage version), is locked by a writer in another
// process, when its path holds '?' or '#' (which the driver's DSN would
// misread), or when a read-only setting does not hold once open. ctx bounds
// the settings check (as does the larger of Options.Timeout and 10s).
//
// DuckDB keeps one database instance per file and process: opening a file
// that this process has open for writing (CopySQLiteToDuckDB running) fails.
func OpenDuckDB(ctx context.Context, id, path string, opts source.Options) (*DuckDB, error) {
	opts = opts.WithDefaults()
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
	case strings.ContainsAny(abs, "?#"):
		return nil, source.Errorf(source.CodeUnavailable, &fs.PathError{Op: "open", Path: abs, Err: errors.New("the path holds '?' or '#'")}, "rename the database file without '?' or '#'",
			"the database path holds '?' or '#', which the DuckDB driver cannot open safely")
	}
	conn, err := duckdb.NewConnector(duckdbDSN(abs), nil)
	if err != nil {
		if e, _ := source.FileEngine(abs); e == "sqlite" {
			return nil, source.WrongEngine(err, "sqlite", "duckdb")
		}
		return nil, duckdbOpenError(err)
	}
	d := &DuckDB{id: id, opts: opts, db: sql.OpenDB(conn), path: abs, ident: source.IdentOf(abs, fi)}
	d.db.SetMaxOpenConns(source.QueryConns)
	d.db.SetMaxIdleConns(source.QueryConns)
	if err := d.lock(ctx); err != nil {
		d.Close()
		return nil, err
	}
	if err := d.checkSettings(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// duckdbDSN is the driver's DSN for absPath: the path, then the settings as
// a URL query.
func duckdbDSN(absPath string) string {
	q := url.Values{}
	for _, s := range duckdbSettings {
		q.Set(s.Name, s.Value)
	}
	return absPath + "?" + q.Encode()
}

// lock sets duckdbLocked, globally: every connection reads them. DuckDB
// keeps one instance per file and process, so a second open of a file
// finds them set (and the configuration locked): those that hold are left.
func (d *DuckDB) lock(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, max(d.opts.Timeout, source.OpenCheckTimeout))
	defer cancel()
	raw, err := d.fetch(ctx, DuckDBSettingsQuery(duckdbLocked), nil, 1)
	if err != nil {
		return err
	}
	for i, s := range duckdbLocked {
		if got, _ := raw.Rows[0][i].(string); got == s.Want {
			continue
		}
		if _, err := d.db.ExecContext(ctx, s.SetGlobal()); err != nil {
			return source.Errorf(source.CodeUnavailable, fmt.Errorf("set %s: %w", s.Name, err), "see the server log", "the database could not be opened read-only")
		}
	}
	return nil
}

// checkSettings reads every setting of duckdbSettings and duckdbLocked back.
func (d *DuckDB) checkSettings(ctx context.Context) error {
	limit := max(d.opts.Timeout, source.OpenCheckTimeout)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	all := append(slices.Clone(duckdbSettings), duckdbLocked...)
	raw, err := d.fetch(ctx, DuckDBSettingsQuery(all), nil, 1)
	if err != nil {
		return err
	}
	got := make([]string, len(all))
	for i := range got {
		got[i], _ = raw.Rows[0][i].(string)
	}
	if err := DuckDBSettingsMismatch(all, got); err != nil {
		return source.Errorf(source.CodeUnavailable, err, "see the server log", "the database could not be opened read-only")
	}
	return nil
}

// ID returns the datasource id.
func (d *DuckDB) ID() string { return d.id }

// Dialect returns "duckdb".
func (d *DuckDB) Dialect() string { return schema.DialectDuckDB }

// Close closes the connections and the database.
func (d *DuckDB) Close() error { return d.db.Close() }

// Query runs one read-only statement with args bound to its ?, $N or
// $name parameters and returns at most maxRows rows (Options.RowLimit when
// maxRows ≤ 0 or larger), setting Truncated when another row exists. It
// stops at Options.Timeout or when ctx ends (TIMEOUT, CANCELLED; DuckDB is
// interrupted), and refuses with CodeReadOnly any text that is not one
// SELECT, WITH or VALUES statement and anything the settings deny (a write,
// a file, an extension, a setting).
func (d *DuckDB) Query(ctx context.Context, sqlText string, args []any, maxRows int) (*source.Result, error) {
	if err := source.CheckStatement(schema.DialectDuckDB, sqlText); err != nil {
		return nil, err
	}
	if maxRows <= 0 || maxRows > d.opts.RowLimit {
		maxRows = d.opts.RowLimit
	}
	raw, err := d.fetch(ctx, sqlText, args, maxRows)
	if err != nil {
		return nil, err
	}
	return raw.EncodeWith(duckdbColumn, duckdbValue), nil
}

// fetch prepares sqlText as exactly one statement on one connection, runs it
// under the timeout and reads at most maxRows rows, and one more to learn
// whether rows were left. Values are the driver's.
func (d *DuckDB) fetch(ctx context.Context, sqlText string, args []any, maxRows int) (*source.RawResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	fail := func(err error) error {
		if e := source.CtxError(ctx, d.opts.Timeout); e != nil {
			return e
		}
		return duckdbError(err)
	}
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, fail(err)
	}
	defer conn.Close()
	var raw *source.RawResult
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckdb connection %T is not a driver.Conn", dc)
		}
		raw, err = queryDuckDBConn(ctx, c, sqlText, args, maxRows)
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	return raw, nil
}

// prepareCapped prepares sqlText and then, where DuckDB accepts it, the
// same statement inside SELECT * FROM (…) LIMIT maxRows+1, which it
// returns instead: duckdb-go runs a query to completion and holds the whole
// result in memory before the first row is read (its pending result is not
// a streaming one), so only a limit inside the statement keeps DuckDB from
// producing more rows than Query reads (a 200M-row SELECT took 1.7 GB and
// hit the timeout without it). DuckDB keeps a subquery's ORDER BY through
// the outer LIMIT (it plans a top-n), so the rows and their order are the
// statement's first maxRows+1.
//
// The statement is prepared alone first: Prepare (not PrepareContext)
// refuses a text of several statements instead of running all but the
// last, and only a text that is one whole SELECT is wrapped, so the
// parentheses cannot pair with any of its own. names are its column names:
// DuckDB renames duplicate names inside a subquery (a, a_1). When the
// wrapped text does not prepare, or is not the same shape, the statement
// runs as written (nil names), materialised as before.
func prepareCapped(c driver.Conn, sqlText string, maxRows int) (driver.Stmt, []string, string, error) {
	stmt, err := c.Prepare(sqlText)
	if err != nil {
		return nil, nil, "", err
	}
	ds, ok := stmt.(*duckdb.Stmt)
	body := source.StatementBody(schema.DialectDuckDB, sqlText)
	if !ok || body == "" {
		return stmt, nil, sqlText, nil
	}
	if t, err := ds.StatementType(); err != nil || t != duckdb.STATEMENT_TYPE_SELECT {
		return stmt, nil, sqlText, nil
	}
	names, err := duckdbStmtColumns(ds)
	if err != nil {
		return stmt, nil, sqlText, nil
	}
	cappedText := "SELECT * FROM (\n" + body + "\n) AS " + source.CappedAlias + " LIMIT " + strconv.Itoa(maxRows+1)
	capped, err := c.Prepare(cappedText)
	if err != nil {
		return stmt, nil, sqlText, nil
	}
	cs, ok := capped.(*duckdb.Stmt)
	if ok && cs.NumInput() == ds.NumInput() {
		if got, err := duckdbStmtColumns(cs); err == nil && len(got) == len(names) {
			stmt.Close()
			return capped, names, cappedText, nil
		}
	}
	capped.Close()
	return stmt, nil, sqlText, nil
}

// duckdbStmtColumns are the column names of a prepared statement.
func duckdbStmtColumns(s *duckdb.Stmt) ([]string, error) {
	n, err := s.ColumnCount()
	if err != nil {
		return nil, err
	}
	names := make([]string, n)
	for i := range names {
		if names[i], err = s.ColumnName(i); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// readDriverRows reads at most maxRows rows of a driver.Rows, and one more
// to set truncated.
func readDriverRows(rows driver.Rows, maxRows int) (*source.RawResult, error) {
	names := rows.Columns()
	raw := &source.RawResult{Names: names, Decls: make([]string, len(names)), Rows: [][]any{}}
	if tn, ok := rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		for i := range names {
			raw.Decls[i] = tn.ColumnTypeDatabaseTypeName(i)
		}
	}
	for {
		vals := make([]driver.Value, len(names))
		err := rows.Next(vals)
		if err == io.EOF {
			return raw, nil
		}
		if err != nil {
			return nil, err
		}
		if len(raw.Rows) == maxRows {
			raw.Truncated = true
			return raw, nil
		}
		row := make([]any, len(vals))
		for i, v := range vals {
			row[i] = v
		}
		raw.Rows = append(raw.Rows, row)
	}
}

// newerStorage is DuckDB's refusal of a file a newer DuckDB wrote: its
// storage version and the ones this build reads.
var newerStorage = regexp.MustCompile(`version number (\d+), but we can only read versions between (\d+) and (\d+)`)

// duckdbOpenError maps a failure to open the database onto *Error. The
// driver's text names the path, so it stays in the cause only.
func duckdbOpenError(err error) *source.Error {
	msg := err.Error()
	switch {
	case newerStorage.MatchString(msg):
		m := newerStorage.FindStringSubmatch(msg)
		return source.Errorf(source.CodeUnavailable, err, "open it with the DuckDB that wrote it and copy it to a storage version this one reads: ATTACH 'copy.duckdb' AS c (STORAGE_VERSION 'v1.0.0'); COPY FROM DATABASE <its name> TO c; then give path: the copy",
			"the file was written by a newer DuckDB (storage version %s) than this server's, which reads storage versions %s to %s", m[1], m[2], m[3])
	case strings.Contains(msg, "Could not set lock"), strings.Contains(msg, "Conflicting lock"):
		// not any "lock": a damaged file's "checksum … in block at
		// location 0" was told to retry, as if another process held it
		return source.Errorf(source.CodeUnavailable, err, "another process holds the database open for writing; retry later", "the database is locked").Temporary()
	case strings.Contains(msg, "not a valid DuckDB database"), strings.Contains(msg, "storage version"),
		strings.Contains(msg, "Corrupt"), strings.Contains(msg, "corrupt"),
		// Another format (an SQLite file) that DuckDB would read through an
		// extension, which it may not load.
		strings.Contains(msg, "extensions is disabled"):
		return source.Errorf(source.CodeUnavailable, err, source.PathHint, "the file is not a DuckDB database this version can read")
	case strings.Contains(msg, "different configuration"):
		return source.Errorf(source.CodeUnavailable, err, "close the other use of this database file in this process", "the database is open with other settings in this process")
	}
	return source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database file cannot be opened")
}

// duckdbError maps an error of a DuckDB statement onto *Error.
func duckdbError(err error) *source.Error {
	var se *source.Error
	if errors.As(err, &se) {
		return se
	}
	msg := err.Error()
	if strings.Contains(msg, "multi-statement") {
		return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the query text holds more than one statement")
	}
	var de *duckdb.Error
	if !errors.As(err, &de) {
		return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %v", err)
	}
	if e := source.DoubleOverflow(de.Msg, err); e != nil {
		return e // the renderer's range check of a float result
	}
	if e := source.DecimalOverflow(de.Msg, err); e != nil {
		return e // the renderer's range check of a decimal result
	}
	switch de.Type {
	case duckdb.ErrorTypePermission:
		return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the read-only policy refused the statement: %s", source.FirstLine(de.Msg))
	case duckdb.ErrorTypeInvalidInput:
		if strings.Contains(de.Msg, "read-only mode") || strings.Contains(de.Msg, "configuration has been locked") {
			return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the read-only policy refused the statement: %s", source.FirstLine(de.Msg))
		}
		if e := source.SeveralRows(de.Msg, err); e != nil {
			return e
		}
	case duckdb.ErrorTypeInterrupt:
		return source.Errorf(source.CodeTimeout, err, source.TimeoutHint, "the query was interrupted")
	case duckdb.ErrorTypeIO:
		return source.Errorf(source.CodeUnavailable, err, source.PathHint, "the database file cannot be read")
	case duckdb.ErrorTypeOutOfRange:
		return source.Errorf(source.CodeOverflow, err, source.OverflowHint, "the query failed: %s", source.FirstLine(de.Msg))
	case duckdb.ErrorTypeConversion:
		if strings.Contains(de.Msg, "out of range") {
			return source.Errorf(source.CodeOverflow, err, source.OverflowHint, "the query failed: %s", source.FirstLine(de.Msg))
		}
	case duckdb.ErrorTypeOutOfMemory:
		return source.Errorf(source.CodeQueryFailed, err, "ask for less data", "the query ran out of memory")
	}
	return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %s", source.FirstLine(de.Msg))
}
