package source

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// CountDuplicateRows sets t.DuplicateRows: how many rows of from (the
// table, or the first rows its column samples were read from, aliased)
// repeat another row exactly, by one count of the distinct rows over
// cols (each column as the profiler compares it: as text where the type
// has no equality). A table with a primary key, or a column whose values
// were all distinct and none NULL, holds no copies and costs nothing;
// the columns' profiles must be set. profiled is the number of rows from
// holds.
func CountDuplicateRows(ctx context.Context, t *schema.Table, from string, cols []string, profiled int64, query func(ctx context.Context, q string) ([]any, error)) error {
	t.DuplicateRows = 0
	if profiled < 2 || len(t.PrimaryKey) > 0 || len(cols) == 0 {
		return nil
	}
	for _, c := range t.Columns {
		if p := c.Profile; p == nil || p.DistinctCount >= profiled && p.NullFraction == 0 {
			return nil // unique in every row (or not profiled): no copies
		}
	}
	row, err := query(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT DISTINCT %s FROM %s) AS d", strings.Join(cols, ", "), from))
	if err != nil {
		return fmt.Errorf("count the rows that repeat another: %w", err)
	}
	if distinct, ok := row[0].(int64); ok && distinct < profiled {
		t.DuplicateRows = profiled - distinct
	}
	return nil
}
