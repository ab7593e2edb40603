package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a column is dropped while a server runs; the SQL it renders
// from its snapshot now fails with SQLite's bare "no such column", and the
// user has no way to know that a restart fixes it.
func TestDroppedColumnSaysTheSchemaChanged(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER, b INTEGER)")
	s := openTest(t, path, source.Options{Timeout: 5 * time.Second})
	sourcetest.ExecWritable(t, path, "ALTER TABLE t DROP COLUMN b")
	for _, q := range []string{`SELECT "b" FROM "main"."t"`, `SELECT 1 FROM "main"."gone"`} {
		_, err := s.Query(context.Background(), q, nil, 10)
		se := sourcetest.AsError(t, err)
		if se.Code != source.CodeQueryFailed || se.Hint != source.SchemaChangedHint {
			t.Errorf("%s: %v (hint %q), want the schema-changed hint", q, se, se.Hint)
		}
	}
}
