package sqlite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Snapshot reads the schema: every table and view of the main database
// (SQLite's internal sqlite_* tables and virtual tables' shadow tables
// left out), their columns in order with declared and portable types and
// nullability (generated columns included, a virtual table's hidden columns
// not), primary key columns in key order, and foreign keys (a reference to
// the parent's primary key resolved to its columns). Tables come sorted by
// (Schema, Name); SQLite's schema is "main". A view that no longer compiles
// is left out (and logged). A view's computed columns are typed from a
// bounded sample of its rows (typeViewColumns). RowCount and profiles stay
// empty: Profile fills them.
//
// It runs on the introspection pool, whose authorizer allows the read-only
// pragma table functions it uses; each statement is bounded by
// Options.Timeout.
func (s *SQLite) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	snap := &schema.Snapshot{Datasource: s.id, Dialect: schema.DialectSQLite, Tables: []schema.Table{}}
	res, err := s.run(ctx, s.meta,
		`SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'view', 'virtual') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`,
		nil, source.MaxIntrospectionRows)
	if err != nil {
		return nil, err
	}
	for _, r := range res.Rows {
		name, kind := r[0].(string), r[1].(string)
		t := schema.Table{Schema: "main", Name: name, Kind: schema.KindTable}
		if kind == "view" {
			t.Kind = schema.KindView
		}
		if err := s.readColumns(ctx, &t); err != nil {
			// A view that no longer compiles (a dropped table, a function
			// the policy denies) is left out rather than failing the
			// whole snapshot.
			var se *source.Error
			if t.Kind == schema.KindView && errors.As(err, &se) && (se.Code == source.CodeQueryFailed || se.Code == source.CodeReadOnly) {
				slog.Warn("sqlite: leaving out a view that does not compile", "datasource", s.id, "view", name, "err", err)
				continue
			}
			return nil, err
		}
		if err := s.readComments(ctx, &t); err != nil {
			return nil, err
		}
		if t.Kind == schema.KindView {
			s.typeViewColumns(ctx, &t)
		}
		snap.Tables = append(snap.Tables, t)
	}
	for i := range snap.Tables {
		if err := s.readForeignKeys(ctx, snap, &snap.Tables[i]); err != nil {
			return nil, err
		}
		if err := s.readUniqueKeys(ctx, &snap.Tables[i]); err != nil {
			return nil, err
		}
	}
	views, err := s.run(ctx, s.meta, `SELECT name, sql FROM sqlite_master WHERE type = 'view'`, nil, source.MaxIntrospectionRows)
	if err != nil {
		return nil, err
	}
	for _, r := range views.Rows {
		source.ViewReads(snap, "main", source.AsString(r[0]), source.AsString(r[1]))
		source.ViewDefinition(snap, "main", source.AsString(r[0]), source.AsString(r[1]))
	}
	snap.SortTables()
	return snap, nil
}

// readColumns fills t.Columns and t.PrimaryKey from pragma_table_xinfo.
// hidden is 0 for an ordinary column, 1 for a virtual table's hidden column,
// 2 and 3 for generated columns.
func (s *SQLite) readColumns(ctx context.Context, t *schema.Table) error {
	res, err := s.run(ctx, s.meta,
		`SELECT name, type, "notnull", pk, hidden FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid`,
		[]any{t.Name}, source.MaxIntrospectionRows)
	if err != nil {
		return err
	}
	type pkCol struct {
		name string
		pos  int64
	}
	var pk []pkCol
	for _, r := range res.Rows {
		name, _ := r[0].(string)
		decl, _ := r[1].(string)
		notNull, _ := r[2].(int64)
		pos, _ := r[3].(int64)
		t.Columns = append(t.Columns, schema.Column{
			Name:         name,
			DeclaredType: decl,
			Type:         schema.NormalizeType(schema.DialectSQLite, decl),
			Nullable:     notNull == 0,
		})
		if pos > 0 {
			pk = append(pk, pkCol{name, pos})
		}
	}
	slices.SortFunc(pk, func(a, b pkCol) int { return int(a.pos - b.pos) })
	for _, c := range pk {
		t.PrimaryKey = append(t.PrimaryKey, c.name)
	}
	// An INTEGER PRIMARY KEY is the rowid and never NULL, NOT NULL or not.
	// (Other primary key columns may hold NULL in SQLite unless declared
	// NOT NULL, so they keep what the pragma says.)
	if len(pk) == 1 && t.Kind == schema.KindTable {
		if c, ok := t.Column(pk[0].name); ok && strings.EqualFold(c.DeclaredType, "INTEGER") {
			c.Nullable = false
		}
	}
	return nil
}

// readUniqueKeys fills t.UniqueKeys from its unique indexes (those of
// UNIQUE constraints and CREATE UNIQUE INDEX), leaving out partial ones,
// which hold only over their rows, and those over an expression.
func (s *SQLite) readUniqueKeys(ctx context.Context, t *schema.Table) error {
	if t.Kind != schema.KindTable {
		return nil
	}
	res, err := s.run(ctx, s.meta,
		`SELECT l.name, i.name FROM pragma_index_list(?) AS l, pragma_index_info(l.name) AS i
			WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' ORDER BY l.name, i.seqno`,
		[]any{t.Name}, source.MaxIntrospectionRows)
	if err != nil {
		return err
	}
	var names []string
	cols := map[string][]string{}
	bad := map[string]bool{}
	for _, r := range res.Rows {
		index := source.AsString(r[0])
		col, ok := r[1].(string)
		if !ok {
			bad[index] = true // an expression
		}
		if _, seen := cols[index]; !seen {
			names = append(names, index)
		}
		cols[index] = append(cols[index], col)
	}
	var keys [][]string
	for _, n := range names {
		if !bad[n] {
			keys = append(keys, cols[n])
		}
	}
	t.UniqueKeys = schema.OtherKeys(t.PrimaryKey, keys)
	return nil
}

// readForeignKeys fills t.ForeignKeys from pragma_foreign_key_list, one key
// per id with columns in seq order. A key written without parent columns
// references the parent's primary key, looked up in snap.
func (s *SQLite) readForeignKeys(ctx context.Context, snap *schema.Snapshot, t *schema.Table) error {
	if t.Kind != schema.KindTable {
		return nil
	}
	res, err := s.run(ctx, s.meta,
		`SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`,
		[]any{t.Name}, source.MaxIntrospectionRows)
	if err != nil {
		return err
	}
	var cur *schema.ForeignKey
	curID := int64(-1)
	for _, r := range res.Rows {
		id, _ := r[0].(int64)
		parent, _ := r[1].(string)
		from, _ := r[2].(string)
		if cur == nil || id != curID {
			t.ForeignKeys = append(t.ForeignKeys, schema.ForeignKey{RefSchema: "main", RefTable: parent})
			cur, curID = &t.ForeignKeys[len(t.ForeignKeys)-1], id
		}
		cur.Columns = append(cur.Columns, from)
		if to, ok := r[3].(string); ok {
			cur.RefColumns = append(cur.RefColumns, to)
		}
	}
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		if len(fk.RefColumns) == 0 {
			if p, ok := snap.Lookup("main", fk.RefTable); ok {
				fk.RefColumns = slices.Clone(p.PrimaryKey)
			}
		}
		// SQLite keeps the parent's name as written in the REFERENCES
		// clause; use the table's own spelling when it exists.
		if p, ok := snap.Lookup("main", fk.RefTable); ok {
			fk.RefTable = p.Name
		}
	}
	return nil
}

// viewSampleRows is how many of a view's first rows type its computed
// columns, and viewSampleTimeout how long reading them may take: a view
// that aggregates a large table computes its groups before its first row,
// and an open must not wait on it.
const (
	viewSampleRows    = 100
	viewSampleTimeout = 2 * time.Second
)

// typeViewColumns types the columns of view t that SQLite gives no
// declared type (an expression, an aggregate: a plain column of a table
// has that column's declared type already) by the storage classes their
// values have in the view's first viewSampleRows rows (typeof): integers
// alone are integer, integers and reals float, text alone text. A column
// with no value there, or values of several classes (a CASE that gives a
// number or a text), stays unknown, as does every such column when the
// sample fails or takes longer than viewSampleTimeout: the validator then
// asks for a cast, as it does for any column of unknown type. Without it
// a host planner read "revenue unknown" for a SUM and could not tell a
// number from a text.
func (s *SQLite) typeViewColumns(ctx context.Context, t *schema.Table) {
	var idx []int
	var cols, counts []string
	for i, c := range t.Columns {
		if c.DeclaredType != "" || c.Type != planast.TypeUnknown {
			continue
		}
		col := source.QuoteIdent(c.Name)
		idx, cols = append(idx, i), append(cols, col)
		for _, class := range []string{"integer", "real", "text", "blob"} {
			counts = append(counts, fmt.Sprintf("count(CASE WHEN typeof(%s) = '%s' THEN 1 END)", col, class))
		}
	}
	if len(idx) == 0 {
		return
	}
	// OFFSET 0: SQLite never flattens a subquery with an OFFSET, so the
	// LIMIT stays where it stops reading the view
	q := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s LIMIT %d OFFSET 0)",
		strings.Join(counts, ", "), strings.Join(cols, ", "), source.QuoteIdent(t.Name), viewSampleRows)
	ctx, cancel := context.WithTimeout(ctx, viewSampleTimeout)
	defer cancel()
	raw, err := s.fetch(ctx, s.meta, q, nil, 1)
	if err != nil || len(raw.Rows) != 1 {
		slog.Debug("sqlite: view columns left untyped", "datasource", s.id, "view", t.Name, "err", err)
		return
	}
	for k, i := range idx {
		n := func(j int) int64 { v, _ := raw.Rows[0][4*k+j].(int64); return v }
		ints, reals, texts, blobs := n(0), n(1), n(2), n(3)
		switch {
		case texts > 0 || blobs > 0:
			if ints == 0 && reals == 0 && blobs == 0 {
				t.Columns[i].Type = planast.TypeText
			}
		case reals > 0:
			t.Columns[i].Type = planast.TypeFloat
		case ints > 0:
			t.Columns[i].Type = planast.TypeInteger
		}
	}
}
