package sqlitecopy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// copyKind is the target type of a copied column.
type copyKind int

const (
	kindBigint    copyKind = iota // 64-bit integer
	kindDouble                    // double precision
	kindDecimal                   // DECIMAL(p,s) / numeric(p,s)
	kindDate                      // date
	kindTimestamp                 // timestamp without time zone
	kindBool                      // boolean
	kindBlob                      // bytes (a declared BLOB column takes text too)
	kindBytes                     // bytes, only []byte values (a column without a type)
	kindText                      // text: takes every value
)

// copyColumn is one column of a copied table with its chosen target type.
type copyColumn struct {
	Name        string
	Kind        copyKind
	Prec, Scale int  // of kindDecimal
	NotNull     bool // declared NOT NULL in SQLite and no NULL found
	hasNull     bool
}

// copyTable is one SQLite table to copy, with the keys worth creating.
type copyTable struct {
	Name        string
	Columns     []copyColumn
	PrimaryKey  []string
	ForeignKeys []schema.ForeignKey
}

// copySource is the SQLite database being copied.
type copySource struct {
	db     *sqlite.SQLite
	tables []*copyTable
	views  []copyView
}

// copyView is an SQLite view: its name and CREATE VIEW statement.
type copyView struct{ Name, SQL string }

// copyTimeout bounds each statement the copy runs through the SQLite
// adapter (the copy itself runs as long as ctx allows).
const copyTimeout = 10 * time.Minute

// openCopySource opens sqlitePath read-only and plans the copy: for each
// table (views are copied by their SQL, best effort) each column's target
// type is the first of candidates(column) that every stored value converts
// to (SQLite stores any value in any column), a column keeps NOT NULL when
// no NULL is stored, the primary key is kept when none of its columns holds
// NULL, and a foreign key is kept when its parent is copied, the referenced
// columns are the parent's kept primary key and the column types match.
func openCopySource(ctx context.Context, sqlitePath string) (*copySource, error) {
	db, err := sqlite.OpenSQLite(ctx, "copy", sqlitePath, source.Options{Timeout: copyTimeout, RowLimit: source.MaxIntrospectionRows})
	if err != nil {
		return nil, err
	}
	src := &copySource{db: db}
	if err := src.plan(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return src, nil
}

func (src *copySource) Close() error { return src.db.Close() }

func (src *copySource) plan(ctx context.Context) error {
	snap, err := src.db.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("read the SQLite schema: %w", err)
	}
	byName := map[string]*copyTable{}
	for _, t := range snap.Tables {
		if t.Kind == schema.KindView {
			continue
		}
		ct, err := src.planTable(ctx, &t)
		if err != nil {
			return fmt.Errorf("table %q: %w", t.Name, err)
		}
		src.tables = append(src.tables, ct)
		byName[ct.Name] = ct
	}
	for i, t := range snap.Tables {
		if t.Kind == schema.KindView {
			continue
		}
		ct := byName[t.Name]
		for _, fk := range snap.Tables[i].ForeignKeys {
			if keepForeignKey(ct, fk, byName) {
				ct.ForeignKeys = append(ct.ForeignKeys, fk)
			} else {
				copyLog("leaving out a foreign key that does not fit the copied tables", ct.Name, fk.Columns)
			}
		}
	}
	res, err := src.db.Query(ctx, `SELECT name, sql FROM sqlite_schema WHERE type = 'view' ORDER BY rowid`, nil, source.MaxIntrospectionRows)
	if err != nil {
		return fmt.Errorf("read the SQLite views: %w", err)
	}
	for _, r := range res.Rows {
		src.views = append(src.views, copyView{Name: source.AsString(r[0]), SQL: source.AsString(r[1])})
	}
	return nil
}

// planTable reads every row of t once and chooses the column types.
func (src *copySource) planTable(ctx context.Context, t *schema.Table) (*copyTable, error) {
	ct := &copyTable{Name: t.Name}
	cands := make([][]copyColumn, len(t.Columns))
	for i, c := range t.Columns {
		cands[i] = candidates(c)
		ct.Columns = append(ct.Columns, copyColumn{Name: c.Name, NotNull: !c.Nullable})
	}
	err := src.scan(ctx, ct, func(row []any) error {
		for i, v := range row {
			if v == nil {
				ct.Columns[i].hasNull = true
				continue
			}
			cands[i] = slices.DeleteFunc(cands[i], func(k copyColumn) bool {
				_, ok := convertValue(v, k)
				return !ok
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range ct.Columns {
		c := &ct.Columns[i]
		best := cands[i][0] // kindText, the last candidate, takes every value
		c.Kind, c.Prec, c.Scale = best.Kind, best.Prec, best.Scale
		c.NotNull = c.NotNull && !c.hasNull
	}
	ct.PrimaryKey = slices.Clone(t.PrimaryKey)
	for _, k := range ct.PrimaryKey {
		if c := ct.column(k); c == nil || c.hasNull {
			copyLog("leaving out a primary key with NULLs", t.Name, ct.PrimaryKey)
			ct.PrimaryKey = nil
			break
		}
	}
	return ct, nil
}

// candidates lists the target types for an SQLite column, best first;
// text, which takes every value, is always last.
func candidates(c schema.Column) []copyColumn {
	kinds := func(ks ...copyKind) []copyColumn {
		out := make([]copyColumn, len(ks))
		for i, k := range ks {
			out[i] = copyColumn{Kind: k}
		}
		return out
	}
	switch c.Type {
	case planast.TypeInteger:
		return kinds(kindBigint, kindDouble, kindText)
	case planast.TypeFloat:
		return kinds(kindDouble, kindText)
	case planast.TypeDecimal:
		if p, s, ok := decimalArgs(c.DeclaredType); ok {
			return append([]copyColumn{{Kind: kindDecimal, Prec: p, Scale: s}}, kinds(kindDouble, kindText)...)
		}
		return kinds(kindBigint, kindDouble, kindText)
	case planast.TypeDate:
		return kinds(kindDate, kindTimestamp, kindText)
	case planast.TypeTimestamp:
		return kinds(kindTimestamp, kindText)
	case planast.TypeBoolean:
		return kinds(kindBool, kindBigint, kindText)
	case planast.TypeText, planast.TypeJSON, planast.TypeArray, planast.TypeInterval:
		return kinds(kindText) // nested values and durations travel as their text
	case planast.TypeBlob:
		return kinds(kindBlob, kindText)
	}
	return kinds(kindBigint, kindDouble, kindBytes, kindText)
}

// decimalArgs parses "NUMERIC(p,s)" or "DECIMAL(p)" into a precision and
// scale both engines take (1 ≤ p ≤ 38, 0 ≤ s ≤ p).
func decimalArgs(decl string) (p, s int, ok bool) {
	i, j := strings.IndexByte(decl, '('), strings.LastIndexByte(decl, ')')
	if i < 0 || j < i {
		return 0, 0, false
	}
	args := strings.Split(decl[i+1:j], ",")
	p, err := strconv.Atoi(strings.TrimSpace(args[0]))
	if err != nil {
		return 0, 0, false
	}
	if len(args) == 2 {
		if s, err = strconv.Atoi(strings.TrimSpace(args[1])); err != nil {
			return 0, 0, false
		}
	}
	return p, s, len(args) <= 2 && p >= 1 && p <= 38 && s >= 0 && s <= p
}

// keepForeignKey reports whether fk of ct can be created among the copied
// tables: the parent is copied, the referenced columns (its primary key
// when fk names none) are its kept primary key, and paired columns have the
// same target type.
func keepForeignKey(ct *copyTable, fk schema.ForeignKey, byName map[string]*copyTable) bool {
	parent := byName[fk.RefTable]
	if parent == nil || len(parent.PrimaryKey) == 0 {
		return false
	}
	ref := fk.RefColumns
	if len(ref) == 0 {
		ref = parent.PrimaryKey
	}
	if len(ref) != len(fk.Columns) || len(ref) != len(parent.PrimaryKey) {
		return false
	}
	for i, name := range fk.Columns {
		c, pc := ct.column(name), parent.column(ref[i])
		if c == nil || pc == nil || !slices.Contains(parent.PrimaryKey, ref[i]) ||
			c.Kind != pc.Kind || c.Prec != pc.Prec || c.Scale != pc.Scale {
			return false
		}
	}
	return true
}

func (ct *copyTable) column(name string) *copyColumn {
	for i := range ct.Columns {
		if ct.Columns[i].Name == name {
			return &ct.Columns[i]
		}
	}
	return nil
}

// scan reads every row of ct's table from SQLite, calling fn with the
// driver's values (the slice is reused between rows).
func (src *copySource) scan(ctx context.Context, ct *copyTable, fn func(row []any) error) error {
	it, err := src.rows(ctx, ct)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		if err := fn(it.vals); err != nil {
			return err
		}
	}
	return it.Err()
}

// rowIter reads the rows of one SQLite table: Next, then the values in
// vals (reused between rows), until Next is false; then Err.
type rowIter struct {
	name string
	rows *sql.Rows
	vals []any
	ptrs []any
	err  error
}

// rows starts reading every row of ct's table from SQLite.
func (src *copySource) rows(ctx context.Context, ct *copyTable) (*rowIter, error) {
	names := make([]string, len(ct.Columns))
	for i, c := range ct.Columns {
		names[i] = source.QuoteIdent(c.Name)
	}
	rows, err := src.db.RawRows(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+source.QuoteIdent(ct.Name))
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", ct.Name, err)
	}
	it := &rowIter{name: ct.Name, rows: rows, vals: make([]any, len(names)), ptrs: make([]any, len(names))}
	for i := range it.vals {
		it.ptrs[i] = &it.vals[i]
	}
	return it, nil
}

func (it *rowIter) Next() bool {
	if it.err != nil || !it.rows.Next() {
		return false
	}
	if err := it.rows.Scan(it.ptrs...); err != nil {
		it.err = err
		return false
	}
	return true
}

func (it *rowIter) Err() error {
	if it.err == nil {
		it.err = it.rows.Err()
	}
	if it.err != nil {
		return fmt.Errorf("read %q: %w", it.name, it.err)
	}
	return nil
}

func (it *rowIter) Close() error { return it.rows.Close() }

// copyOrder returns the tables parents first (a cycle is broken where it
// closes), so an engine that takes foreign keys only in CREATE TABLE
// (DuckDB) sees every parent before its children.
func copyOrder(tables []*copyTable) []*copyTable {
	byName := map[string]*copyTable{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	state := map[string]int{} // 1 visiting, 2 done
	var out []*copyTable
	var visit func(t *copyTable)
	visit = func(t *copyTable) {
		if state[t.Name] != 0 {
			return
		}
		state[t.Name] = 1
		for _, fk := range t.ForeignKeys {
			if p := byName[fk.RefTable]; p != nil && p != t {
				visit(p)
			}
		}
		state[t.Name] = 2
		out = append(out, t)
	}
	for _, t := range tables {
		visit(t)
	}
	return out
}

// errCopyTarget marks a copy that found its target in the way.
var errCopyTarget = errors.New("the copy target is not empty")
