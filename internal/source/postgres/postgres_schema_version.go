package postgres

import (
	"context"

	"github.com/nl2sql/nl2sql/internal/source"
)

// SchemaVersion is a digest of what Snapshot reads about relations and
// columns (names, kinds, types, nullability), over the relations the role
// may read, and of the names of those it may not (Snapshot.Unreadable: a
// table created unreadable while the server runs is said to exist, with
// the GRANT it needs, not said not to be there): PostgreSQL has no schema
// counter, and a digest of the catalog rows' versions (xmin) would move
// with every ANALYZE. Keys and comments are left out; a change to them
// alone is read at the next open.
func (p *Postgres) SchemaVersion(ctx context.Context) (string, error) {
	rows, err := p.introspect(ctx, `SELECT md5(coalesce((SELECT string_agg(c.oid::text || ':' || c.relname || ':' || c.relkind::text || ':' || n.nspname || ':' ||
			coalesce((SELECT string_agg(a.attname || ' ' || a.atttypid::text || ' ' || a.atttypmod::text || ' ' || a.attnotnull::text, ',' ORDER BY a.attnum)
				FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), ''), ';' ORDER BY c.oid)
		`+pgRelations+`), '') || '|' || coalesce((SELECT string_agg(c.oid::text || ':' || n.nspname || '.' || c.relname, ';' ORDER BY c.oid)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND NOT c.relispartition AND `+pgVisibleSchema+` AND NOT has_table_privilege(c.oid, 'SELECT')), ''))`)
	if err != nil {
		return "", err
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		return "", source.Errorf(source.CodeQueryFailed, nil, "", "the schema version could not be read")
	}
	return source.AsString(rows[0][0]), nil
}
