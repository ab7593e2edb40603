package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// Snapshot reads the schema of the database file (not the in-memory temp
// and system catalogs): every table and view of every schema with its
// comment, columns in order with declared and portable types, nullability
// and comments, primary key columns in key order, and foreign keys. Tables
// come sorted by (Schema, Name); DuckDB's default schema is "main".
// RowCount and profiles stay empty: Profile fills them. Each statement is
// bounded by Options.Timeout.
func (d *DuckDB) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	snap := &schema.Snapshot{Datasource: d.id, Dialect: schema.DialectDuckDB, Tables: []schema.Table{}}
	tables, err := d.introspect(ctx, `
		SELECT schema_name, table_name, 'table', coalesce(comment, '') FROM duckdb_tables()
		WHERE database_name = current_database() AND NOT internal AND NOT temporary
		UNION ALL
		SELECT schema_name, view_name, 'view', coalesce(comment, '') FROM duckdb_views()
		WHERE database_name = current_database() AND NOT internal AND NOT temporary`)
	if err != nil {
		return nil, err
	}
	index := map[[2]string]int{}
	for _, r := range tables {
		t := schema.Table{Schema: source.AsString(r[0]), Name: source.AsString(r[1]), Kind: source.AsString(r[2]), Comment: source.AsString(r[3])}
		index[[2]string{t.Schema, t.Name}] = len(snap.Tables)
		snap.Tables = append(snap.Tables, t)
	}
	lookup := func(schemaName, name any) *schema.Table {
		if i, ok := index[[2]string{source.AsString(schemaName), source.AsString(name)}]; ok {
			return &snap.Tables[i]
		}
		return nil
	}

	cols, err := d.introspect(ctx, `
		SELECT schema_name, table_name, column_name, data_type, is_nullable, coalesce(comment, '')
		FROM duckdb_columns()
		WHERE database_name = current_database() AND NOT internal
		ORDER BY schema_name, table_name, column_index`)
	if err != nil {
		return nil, err
	}
	for _, r := range cols {
		t := lookup(r[0], r[1])
		if t == nil {
			continue
		}
		nullable, _ := r[4].(bool)
		t.Columns = append(t.Columns, schema.Column{
			Name:         source.AsString(r[2]),
			DeclaredType: source.AsString(r[3]),
			Type:         schema.NormalizeType(schema.DialectDuckDB, source.AsString(r[3])),
			Nullable:     nullable,
			Comment:      source.AsString(r[5]),
			TextOf:       enumText(source.AsString(r[3])),
		})
	}

	cons, err := d.introspect(ctx, `
		SELECT schema_name, table_name, constraint_type, constraint_column_names,
			referenced_table, referenced_column_names
		FROM duckdb_constraints()
		WHERE database_name = current_database()
			AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY', 'UNIQUE')
		ORDER BY schema_name, table_name, constraint_index`)
	if err != nil {
		return nil, err
	}
	for _, r := range cons {
		t := lookup(r[0], r[1])
		if t == nil {
			continue
		}
		columns := source.AsStrings(r[3])
		switch source.AsString(r[2]) {
		case "PRIMARY KEY":
			t.PrimaryKey = columns
		case "UNIQUE":
			t.UniqueKeys = append(t.UniqueKeys, columns)
		case "FOREIGN KEY":
			// DuckDB keys reference a table of the same schema.
			fk := schema.ForeignKey{Columns: columns, RefSchema: t.Schema, RefTable: source.AsString(r[4]), RefColumns: source.AsStrings(r[5])}
			if p := lookup(t.Schema, fk.RefTable); p != nil {
				fk.RefTable = p.Name
			}
			t.ForeignKeys = append(t.ForeignKeys, fk)
		}
	}
	for i := range snap.Tables {
		t := &snap.Tables[i]
		t.UniqueKeys = schema.OtherKeys(t.PrimaryKey, t.UniqueKeys)
	}
	views, err := d.introspect(ctx, `SELECT schema_name, view_name, sql FROM duckdb_views()
		WHERE database_name = current_database() AND NOT internal AND NOT temporary`)
	if err != nil {
		return nil, err
	}
	for _, r := range views {
		source.ViewReads(snap, source.AsString(r[0]), source.AsString(r[1]), source.AsString(r[2]))
		source.ViewDefinition(snap, source.AsString(r[0]), source.AsString(r[1]), source.AsString(r[2]))
	}
	snap.SortTables()
	return snap, nil
}

// introspect runs one of the adapter's own catalog queries and returns its
// rows as the driver gave them. More than MaxIntrospectionRows rows is an
// error, not a silently short schema.
func (d *DuckDB) introspect(ctx context.Context, sqlText string) ([][]any, error) {
	raw, err := d.fetch(ctx, sqlText, nil, source.MaxIntrospectionRows)
	if err != nil {
		return nil, err
	}
	if raw.Truncated {
		return nil, source.Errorf(source.CodeQueryFailed, nil, "", "the schema has more than %d catalog rows", source.MaxIntrospectionRows)
	}
	return raw.Rows, nil
}

// Profile fills RowCount and each column's Profile for the tables of snap,
// by the rules of (*SQLite).Profile. A table profiled before by this
// adapter comes from its cache (the file cannot change while it is open
// read-only). Each statement is bounded by Options.Timeout; a table that
// fails keeps what it had, the others go on and the errors are joined.
func (d *DuckDB) Profile(ctx context.Context, snap *schema.Snapshot) error {
	p := &source.SQLProfiler{
		Query: func(ctx context.Context, sqlText string, maxRows int) (*source.Result, error) {
			raw, err := d.fetch(ctx, sqlText, nil, maxRows)
			if err != nil {
				return nil, err
			}
			return raw.EncodeWith(duckdbColumn, duckdbValue), nil
		},
		Timeout:     d.opts.Timeout,
		Table:       func(t *schema.Table) string { return source.QuoteIdent(t.Schema) + "." + source.QuoteIdent(t.Name) },
		AsText:      func(expr string) string { return "CAST(" + expr + " AS VARCHAR)" },
		Dialect:     render.DuckDB{},
		Matches:     func(text, re string) string { return fmt.Sprintf("regexp_full_match(%s, '%s')", text, re) },
		SampleValue: func(c *schema.Column, _ string) string { return "any_value(" + source.QuoteIdent(c.Name) + ")" },
		SampleAsText: func(c *schema.Column) bool {
			// Nested types, JSON and unknown types compare and sample as
			// text; an enum samples as the text plans read (TextOf).
			return c.Type == planast.TypeUnknown || c.Type.IsNested() || c.TextOf != ""
		},
		ColumnText: func(c *schema.Column, col string) string {
			if c.TextOf != "" {
				return render.EngineText(render.DuckDB{}, col, c.TextOf) // as plans read it
			}
			return "CAST(" + col + " AS VARCHAR)"
		},
		Cache:   &d.profiles,
		Version: func(context.Context) (string, error) { return "read-only", nil },
	}
	return p.Profile(ctx, snap)
}

// enumText is schema.Column.TextOf of a column of DuckDB type declared:
// the type of an enum, whose values order and compare by their declared
// position ('low' < 'high' < '10'), where every other engine orders text
// by its characters; plans read its text, so one plan orders alike
// everywhere. "" for any other type.
func enumText(declared string) string {
	if strings.HasPrefix(strings.ToUpper(declared), "ENUM(") {
		return declared
	}
	return ""
}
