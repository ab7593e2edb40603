package values

import (
	"context"
	"fmt"
	"strings"
)

// Source lists the distinct non-NULL values of one column, at most
// limit of them, in a stable order. Build asks it for text columns only.
type Source interface {
	DistinctValues(ctx context.Context, schemaName, table, column string, limit int) ([]string, error)
}

// QueryFunc runs one read-only SELECT and returns at most maxRows rows and
// whether more were left (an internal/source adapter's Query, with its
// Result's Rows and Truncated).
type QueryFunc func(ctx context.Context, sql string, maxRows int) (rows [][]any, truncated bool, err error)

// FromQuery is a Source over SQL: it pages through
//
//	SELECT DISTINCT "col" FROM "schema"."table" WHERE "col" IS NOT NULL
//	ORDER BY 1 LIMIT n OFFSET k
//
// (double-quoted identifiers: SQLite, DuckDB and PostgreSQL) in pages of
// 1,000 rows, so an adapter's row cap does not cut the list short. Non-text
// values are skipped.
func FromQuery(q QueryFunc) Source { return queryValues(q) }

type queryValues QueryFunc

func (q queryValues) DistinctValues(ctx context.Context, schemaName, table, column string, limit int) ([]string, error) {
	const page = 1000
	col := quote(column)
	from := quote(table)
	if schemaName != "" {
		from = quote(schemaName) + "." + from
	}
	var out []string
	for off := 0; off < limit; {
		n := min(page, limit-off)
		sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL ORDER BY 1 LIMIT %d OFFSET %d", col, from, col, n, off)
		rows, truncated, err := q(ctx, sql, n)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if len(r) > 0 {
				if s, ok := r[0].(string); ok {
					out = append(out, s)
				}
			}
		}
		off += len(rows)
		if len(rows) == 0 || (len(rows) < n && !truncated) {
			break
		}
	}
	return out, nil
}

func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }
