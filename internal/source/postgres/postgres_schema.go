package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// pgRelations selects the relations a snapshot shows: tables, partitioned
// tables, foreign tables, views and materialized views of the visible
// schemas (not partitions) that the role may SELECT from.
const pgRelations = `FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND NOT c.relispartition
		AND ` + pgVisibleSchema + ` AND has_table_privilege(c.oid, 'SELECT')`

// Snapshot reads the schema: every relation of pgRelations with its
// comment, its columns in order with declared type (format_type:
// "numeric(12,2)", "character varying(40)"), portable type (of a domain's
// base type; enums are text), nullability and comment, the primary key's
// columns in key order, and foreign keys with their columns paired in key
// order. Views and materialized views are KindView. Tables come sorted by
// (Schema, Name). RowCount and profiles stay empty: Profile fills them.
// Each statement runs in a read-only transaction bounded by
// Options.Timeout.
func (p *Postgres) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	snap := &schema.Snapshot{Datasource: p.id, Dialect: schema.DialectPostgres, Tables: []schema.Table{}}
	tables, err := p.introspect(ctx, `SELECT c.oid::int8, n.nspname::text, c.relname::text,
			c.relkind IN ('v', 'm'), coalesce(obj_description(c.oid, 'pg_class'), '') `+pgRelations)
	if err != nil {
		return nil, err
	}
	// the schema a name without one reads (the DSN may set search_path):
	// plans and listings name the tables outside it schema.table
	cur, err := p.introspect(ctx, `SELECT coalesce(current_schema(), ''), current_user::text`)
	if err != nil {
		return nil, err
	}
	if len(cur) == 1 {
		if d := source.AsString(cur[0][0]); d != "" && d != schema.DefaultSchema(schema.DialectPostgres) {
			snap.DefaultSchema = d
		}
		// the role what the snapshot lacks must be granted to
		snap.Role = source.AsString(cur[0][1])
	}
	// what the role may not read: a plan naming it is told so, not that
	// it does not exist
	hidden, err := p.introspect(ctx, `SELECT n.nspname::text, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND NOT c.relispartition
			AND `+pgVisibleSchema+` AND NOT has_table_privilege(c.oid, 'SELECT')
		ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	for _, r := range hidden {
		snap.Unreadable = append(snap.Unreadable, schema.Relation{Schema: source.AsString(r[0]), Name: source.AsString(r[1])})
	}
	byOID := map[int64]int{}
	for _, r := range tables {
		t := schema.Table{Schema: source.AsString(r[1]), Name: source.AsString(r[2]), Kind: schema.KindTable, Comment: source.AsString(r[4])}
		if view, _ := r[3].(bool); view {
			t.Kind = schema.KindView
		}
		byOID[r[0].(int64)] = len(snap.Tables)
		snap.Tables = append(snap.Tables, t)
	}
	table := func(oid any) *schema.Table {
		o, _ := oid.(int64)
		if i, ok := byOID[o]; ok {
			return &snap.Tables[i]
		}
		return nil
	}

	cols, err := p.introspect(ctx, `SELECT c.oid::int8, a.attname::text, format_type(a.atttypid, a.atttypmod),
			CASE t.typtype WHEN 'd' THEN format_type(t.typbasetype, t.typtypmod) WHEN 'e' THEN 'text'
				ELSE format_type(a.atttypid, a.atttypmod) END,
			a.attnotnull, coalesce(col_description(c.oid, a.attnum), ''), t.typtype = 'e'
		FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
			JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE a.attnum > 0 AND NOT a.attisdropped AND c.oid IN (SELECT c.oid `+pgRelations+`)
		ORDER BY c.oid, a.attnum`)
	if err != nil {
		return nil, err
	}
	for _, r := range cols {
		t := table(r[0])
		if t == nil {
			continue
		}
		notNull, _ := r[4].(bool)
		enum, _ := r[6].(bool)
		t.Columns = append(t.Columns, schema.Column{
			TextOf:       textOf(source.AsString(r[2]), source.AsString(r[3]), enum),
			Name:         source.AsString(r[1]),
			DeclaredType: source.AsString(r[2]),
			Type:         schema.NormalizeType(schema.DialectPostgres, source.AsString(r[3])),
			Nullable:     !notNull,
			Comment:      source.AsString(r[5]),
		})
	}

	keys, err := p.introspect(ctx, `SELECT con.conrelid::int8, con.contype::text, con.conname::text, k.ord,
			a.attname::text, rn.nspname::text, rc.relname::text, ra.attname::text
		FROM pg_constraint con
			CROSS JOIN LATERAL unnest(con.conkey, coalesce(con.confkey, con.conkey)) WITH ORDINALITY AS k(attnum, refnum, ord)
			JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
			LEFT JOIN pg_class rc ON rc.oid = con.confrelid
			LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
			LEFT JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.refnum
		WHERE con.contype IN ('p', 'f') AND con.conparentid = 0
			AND con.conrelid IN (SELECT c.oid `+pgRelations+`)
		ORDER BY con.conrelid, con.contype, con.conname, k.ord`)
	if err != nil {
		return nil, err
	}
	var fk *schema.ForeignKey
	fkKey := ""
	for _, r := range keys {
		t := table(r[0])
		if t == nil {
			continue
		}
		switch source.AsString(r[1]) {
		case "p":
			t.PrimaryKey = append(t.PrimaryKey, source.AsString(r[4]))
		case "f":
			if key := fmt.Sprint(r[0]) + "\x00" + source.AsString(r[2]); key != fkKey {
				t.ForeignKeys = append(t.ForeignKeys, schema.ForeignKey{RefSchema: source.AsString(r[5]), RefTable: source.AsString(r[6])})
				fk, fkKey = &t.ForeignKeys[len(t.ForeignKeys)-1], key
			}
			fk.Columns = append(fk.Columns, source.AsString(r[4]))
			fk.RefColumns = append(fk.RefColumns, source.AsString(r[7]))
		}
	}
	// other keys: unique indexes (a UNIQUE constraint's included) over
	// plain columns, valid and not partial, their key columns only
	uniq, err := p.introspect(ctx, `SELECT i.indrelid::int8, ic.relname::text, k.ord, a.attname::text
		FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
			CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
			JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
		WHERE i.indisunique AND NOT i.indisprimary AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
			AND k.ord <= i.indnkeyatts AND i.indrelid IN (SELECT c.oid `+pgRelations+`)
		ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, err
	}
	byTable := map[*schema.Table][][]string{}
	index := ""
	for _, r := range uniq {
		t := table(r[0])
		if t == nil {
			continue
		}
		keys := byTable[t]
		if name := fmt.Sprint(r[0]) + "\x00" + source.AsString(r[1]); name != index || len(keys) == 0 {
			keys, index = append(keys, nil), name
		}
		keys[len(keys)-1] = append(keys[len(keys)-1], source.AsString(r[3]))
		byTable[t] = keys
	}
	for t, keys := range byTable {
		t.UniqueKeys = schema.OtherKeys(t.PrimaryKey, keys)
	}
	// what each view reads, as its rewrite rule depends on it
	reads, err := p.introspect(ctx, `SELECT DISTINCT v.oid::int8, rn.nspname::text, r.relname::text
		FROM pg_rewrite rw JOIN pg_class v ON v.oid = rw.ev_class
		JOIN pg_depend d ON d.objid = rw.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
		JOIN pg_class r ON r.oid = d.refobjid AND r.oid <> v.oid JOIN pg_namespace rn ON rn.oid = r.relnamespace
		WHERE v.relkind IN ('v', 'm') ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, err
	}
	for _, r := range reads {
		if t := table(r[0]); t != nil {
			t.Reads = append(t.Reads, schema.Relation{Schema: source.AsString(r[1]), Name: source.AsString(r[2])})
		}
	}
	// what each view covers, for planners that would take it for the
	// answer its name promises
	defs, err := p.introspect(ctx, `SELECT n.nspname::text, c.relname::text, pg_get_viewdef(c.oid) `+pgRelations+`
			AND c.relkind IN ('v', 'm')`)
	if err != nil {
		return nil, err
	}
	for _, r := range defs {
		source.ViewDefinition(snap, source.AsString(r[0]), source.AsString(r[1]), source.AsString(r[2]))
	}
	snap.SortTables()
	return snap, nil
}

// introspect runs one of the adapter's catalog queries and returns its rows
// as pgx gave them. More than MaxIntrospectionRows rows is an error, not a
// silently short schema.
func (p *Postgres) introspect(ctx context.Context, sqlText string) ([][]any, error) {
	raw, err := p.fetch(ctx, sqlText, nil, source.MaxIntrospectionRows)
	if err != nil {
		return nil, err
	}
	if raw.Truncated {
		return nil, source.Errorf(source.CodeQueryFailed, nil, "", "the schema has more than %d catalog rows", source.MaxIntrospectionRows)
	}
	return raw.Rows, nil
}

// pgReadAsText are the base types the portable types call text whose
// values are no strings to PostgreSQL: a plan reads their text
// (schema.Column.TextOf), as its values come back.
var pgReadAsText = map[string]bool{"inet": true, "cidr": true, "bit": true, "bit varying": true, "xml": true}

// textOf is schema.Column.TextOf of a column of declared type declared,
// base type base (a domain's) and an enum or not.
func textOf(declared, base string, enum bool) string {
	if enum {
		return declared
	}
	b := strings.ToLower(base)
	if i := strings.IndexByte(b, '('); i >= 0 {
		b = strings.TrimSpace(b[:i])
	}
	if pgReadAsText[b] {
		return b
	}
	return ""
}

// pgStringTypes are the declared base types that are strings already; other
// text-like types (json, xml, uuid, interval, time, inet) and unknown ones
// are counted and sampled as their text.
var pgStringTypes = []string{"text", "character varying", "character", "name", "citext", "bpchar", "varchar", "char"}

// Profile fills RowCount and each column's Profile for the tables of snap,
// by the rules of (*SQLite).Profile; text sorts byte-wise (COLLATE "C").
// A table profiled before by this adapter comes from its cache while
// pg_current_snapshot() reads the same: no transaction that could write has
// ended or begun since, anywhere in the cluster (other databases' writes
// empty the cache too, which errs on the side of profiling again).
// Each statement runs in a read-only transaction bounded by
// Options.Timeout; a table that fails keeps what it had, the others go on
// and the errors are joined.
func (p *Postgres) Profile(ctx context.Context, snap *schema.Snapshot) error {
	prof := &source.SQLProfiler{
		Query: func(ctx context.Context, sqlText string, maxRows int) (*source.Result, error) {
			raw, err := p.fetch(ctx, sqlText, nil, maxRows)
			if err != nil {
				return nil, err
			}
			return raw.EncodeWith(pgColumn, pgValue), nil
		},
		Timeout: p.opts.Timeout,
		Table:   func(t *schema.Table) string { return source.QuoteIdent(t.Schema) + "." + source.QuoteIdent(t.Name) },
		AsText:  func(expr string) string { return "(" + expr + ")::text" },
		ColumnText: func(c *schema.Column, col string) string {
			if c.TextOf != "" {
				return render.EngineText(render.Postgres{}, col, c.TextOf) // as plans read it
			}
			return "(" + col + ")::text"
		},
		Matches:   func(text, re string) string { return fmt.Sprintf("%s ~ '^%s$'", text, re) },
		TextOrder: ` COLLATE "C"`,
		Dialect:   render.Postgres{},
		// the group's text read back as the column's type: every array and
		// JSON type reads its own text
		SampleValue: func(c *schema.Column, text string) string { return text + "::" + c.DeclaredType },
		SampleAsText: func(c *schema.Column) bool {
			if c.Type.IsNested() {
				return true // json has no equality to group by
			}
			if c.Type != planast.TypeText && c.Type != planast.TypeUnknown {
				return false
			}
			base := strings.ToLower(c.DeclaredType)
			if i := strings.IndexByte(base, '('); i >= 0 {
				base = strings.TrimSpace(base[:i])
			}
			for _, s := range pgStringTypes {
				if base == s {
					return false
				}
			}
			return true
		},
		Cache:   &p.profiles,
		Version: p.dataVersion,
	}
	return prof.Profile(ctx, snap)
}

// dataVersion is the text of pg_current_snapshot(): its xmin, xmax and
// in-progress transaction ids change whenever a transaction that holds a
// transaction id (every one that writes) starts or ends.
func (p *Postgres) dataVersion(ctx context.Context) (string, error) {
	raw, err := p.fetch(ctx, "SELECT pg_current_snapshot()::text", nil, 1)
	if err != nil {
		return "", err
	}
	return source.AsString(raw.Rows[0][0]), nil
}
