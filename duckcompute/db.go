package duckcompute

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	duckdbsrc "github.com/nl2sql/nl2sql/internal/source/duckdb"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// settings are the DSN options every compute database opens with:
// duckdbsrc.DuckDBSandbox (no files, network or extensions, no spilling).
// Seal adds lock_configuration.
var settings = duckdbsrc.DuckDBSandbox

// Options tune a DB.
type Options struct {
	// Timeout bounds each statement; 0 means 30 seconds.
	Timeout time.Duration
	// MemoryLimit is DuckDB's memory_limit ("512MB"); "" keeps DuckDB's default.
	MemoryLimit string
	// DecimalScale is the scale of every decimal column, DECIMAL(38,
	// DecimalScale), at most MaxScale; ≤ 0 means 2. Give the most
	// fraction digits any loaded decimal value needs (FractionDigits).
	DecimalScale int
}

// DB is an in-process, in-memory DuckDB database that holds the tables a
// combination reads. Load tables, then Run plans over them; the first Run
// (or Seal) locks the configuration, after which nothing can be loaded and
// no setting changed. A DB is safe for concurrent use; Close frees it.
type DB struct {
	opts   Options
	db     *sql.DB
	mu     sync.Mutex
	cat    *Catalog
	sealed bool
}

// Open creates an empty compute database.
func Open(ctx context.Context, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.DecimalScale <= 0 {
		opts.DecimalScale = 2
	}
	opts.DecimalScale = min(opts.DecimalScale, MaxScale)
	q := url.Values{}
	for _, s := range settings {
		q.Set(s.Name, s.Value)
	}
	if opts.MemoryLimit != "" {
		q.Set("memory_limit", opts.MemoryLimit)
	}
	conn, err := duckdb.NewConnector(":memory:?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("duckcompute: open: %w", err)
	}
	d := &DB{opts: opts, db: sql.OpenDB(conn), cat: NewCatalog()}
	d.db.SetMaxOpenConns(1) // one in-memory database, one connection: the appender and queries share it
	if err := d.checkSettings(ctx, false); err != nil {
		d.db.Close()
		return nil, err
	}
	return d, nil
}

// Close frees the database.
func (d *DB) Close() error { return d.db.Close() }

// Catalog returns the catalog of the tables loaded so far.
func (d *DB) Catalog() *Catalog {
	d.mu.Lock()
	defer d.mu.Unlock()
	return NewCatalog(d.shapes()...)
}

func (d *DB) shapes() []Shape {
	var out []Shape
	for _, n := range d.cat.Names() {
		s, _ := d.cat.Shape(n)
		out = append(out, s)
	}
	return out
}

// Load creates table s (which must not exist) with its columns' DuckDB
// types and appends rows through DuckDB's Appender. Rows hold values in
// internal/source's result encoding, one per column; a value that does not
// convert to its column's type is loaded as NULL and reported in a Warning
// (one per column, in column order). A decimal column is
// DECIMAL(38, Options.DecimalScale).
func (d *DB) Load(ctx context.Context, s Shape, rows [][]any) ([]Warning, error) {
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("duckcompute: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sealed {
		return nil, errors.New("duckcompute: the database is sealed; load every table before the first Run")
	}
	if _, dup := d.cat.LookupTable("", s.Name); dup {
		return nil, fmt.Errorf("duckcompute: table %s is loaded already", s.Name)
	}
	asText := textColumns(s, rows, d.opts.DecimalScale)
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		ty := duckType(c.Type, d.opts.DecimalScale)
		if asText[i] {
			ty = "VARCHAR"
		}
		cols[i] = render.QuoteIdent(c.Name) + " " + ty
	}
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("duckcompute: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE TABLE "+render.QuoteIdent(s.Name)+" ("+strings.Join(cols, ", ")+")"); err != nil {
		return nil, fmt.Errorf("duckcompute: create %s: %w", s.Name, err)
	}
	warn := make([]Warning, len(s.Columns))
	err = conn.Raw(func(dc any) error {
		dconn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckdb connection %T is not a driver.Conn", dc)
		}
		app, err := duckdb.NewAppenderFromConn(dconn, "", s.Name)
		if err != nil {
			return err
		}
		vals := make([]driver.Value, len(s.Columns))
		for n, row := range rows {
			if len(row) != len(s.Columns) {
				app.Close()
				return fmt.Errorf("row %d has %d values for %d columns", n, len(row), len(s.Columns))
			}
			for i, c := range s.Columns {
				conv := convert
				if asText[i] {
					conv = convertText
				}
				v, ok := conv(row[i], c.Type, d.opts.DecimalScale)
				if !ok {
					if warn[i].Count == 0 {
						warn[i].Example = example(row[i])
					}
					warn[i].Count++
					v = nil
				}
				vals[i] = v
			}
			if err := app.AppendRow(vals...); err != nil {
				app.Close()
				return fmt.Errorf("row %d: %w", n, err)
			}
		}
		if err := app.Close(); err != nil {
			return err
		}
		// A timestamp column appended as text becomes a TIMESTAMP again:
		// DuckDB's cast reads "infinity" and "-infinity", which the
		// Appender refuses.
		for i, c := range s.Columns {
			if asText[i] && c.Type == planast.TypeTimestamp {
				alter := "ALTER TABLE " + render.QuoteIdent(s.Name) + " ALTER COLUMN " + render.QuoteIdent(c.Name) + " SET DATA TYPE TIMESTAMP"
				if _, err := dconn.(driver.ExecerContext).ExecContext(ctx, alter, nil); err != nil {
					return fmt.Errorf("retype %s: %w", c.Name, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+render.QuoteIdent(s.Name))
		return nil, fmt.Errorf("duckcompute: load %s: %w", s.Name, err)
	}
	d.cat.add(s)
	var out []Warning
	for i, w := range warn {
		if w.Count > 0 {
			w.Table, w.Column, w.Type = s.Name, s.Columns[i].Name, s.Columns[i].Type
			out = append(out, w)
		}
	}
	return out, nil
}

// Seal locks the configuration (lock_configuration=true) and checks that
// every setting still holds. After it, Load is refused. Run seals first.
func (d *DB) Seal(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seal(ctx)
}

func (d *DB) seal(ctx context.Context) error {
	if d.sealed {
		return nil
	}
	if _, err := d.db.ExecContext(ctx, duckdbsrc.DuckDBInUTC.SetGlobal()); err != nil {
		return fmt.Errorf("duckcompute: set the time zone: %w", err)
	}
	if _, err := d.db.ExecContext(ctx, "SET lock_configuration = true"); err != nil {
		return fmt.Errorf("duckcompute: lock the configuration: %w", err)
	}
	if err := d.checkSettings(ctx, true); err != nil {
		return err
	}
	d.sealed = true
	return nil
}

// checkSettings reads every setting back (and lock_configuration when locked).
func (d *DB) checkSettings(ctx context.Context, locked bool) error {
	all := append([]duckdbsrc.DuckDBSetting{}, settings...)
	if locked {
		all = append(all, duckdbsrc.DuckDBInUTC, duckdbsrc.DuckDBSetting{Name: "lock_configuration", Value: "true", Want: "true"})
	}
	got := make([]string, len(all))
	ptrs := make([]any, len(all))
	for i := range got {
		ptrs[i] = &got[i]
	}
	if err := d.db.QueryRowContext(ctx, duckdbsrc.DuckDBSettingsQuery(all)).Scan(ptrs...); err != nil {
		return fmt.Errorf("duckcompute: read settings: %w", err)
	}
	if err := duckdbsrc.DuckDBSettingsMismatch(all, got); err != nil {
		return fmt.Errorf("duckcompute: %w", err)
	}
	return nil
}

// Output is the result of Run.
type Output struct {
	// Plan is the validated plan; SQL the DuckDB SQL it rendered to.
	Plan *planast.Query
	SQL  string
	// Columns and Types are the validator's output names and types.
	Columns []string
	Types   []planast.Type
	// Rows are in internal/source's result encoding; Truncated is set when
	// the plan had more than maxRows rows.
	Rows      [][]any
	Truncated bool
}

// Run seals the database, validates plan against the loaded tables with
// validate.Plan, renders it with render.DuckDB and runs it, returning at
// most maxRows rows (≥ 1) with the row order render makes total.
func (d *DB) Run(ctx context.Context, plan *planast.Query, maxRows int) (*Output, error) {
	if maxRows < 1 {
		maxRows = 1
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.seal(ctx); err != nil {
		return nil, err
	}
	v, err := validate.Plan(plan, d.cat, validate.Options{})
	if err != nil {
		return nil, err
	}
	text, err := render.SQL(v.Plan, render.DuckDB{}, render.Options{MaxRows: int64(maxRows) + 1, SortAllRows: true, OneDecimalScale: true})
	if err != nil {
		return nil, fmt.Errorf("duckcompute: a validated plan failed to render: %w", err)
	}
	res, err := d.query(ctx, text, maxRows)
	if err != nil {
		return nil, fmt.Errorf("duckcompute: run: %w", err)
	}
	if res.Rows == nil {
		res.Rows = [][]any{}
	}
	for i, t := range v.Types {
		if t != planast.TypeDecimal {
			continue
		}
		for _, row := range res.Rows {
			if f, ok := row[i].(float64); ok {
				row[i] = round15(f)
			}
		}
	}
	return &Output{Plan: v.Plan, SQL: text, Columns: v.Columns, Types: v.Types, Rows: res.Rows, Truncated: res.Truncated}, nil
}

// query prepares text as exactly one statement and reads it with the
// DuckDB adapter's encoding.
func (d *DB) query(ctx context.Context, text string, maxRows int) (*source.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var res *source.Result
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckdb connection %T is not a driver.Conn", dc)
		}
		res, err = duckdbsrc.QueryDuckDBConn(ctx, c, text, nil, maxRows)
		return err
	})
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return res, err
}
