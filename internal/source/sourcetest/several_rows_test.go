package sourcetest

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// A subquery used as a value that returns several rows is one error the
// caller can act on, the same code and hint on every engine: a user who
// got PostgreSQL's bare message could not tell what to change, and SQLite
// answered with one of the rows. SQLite's statement is what the renderer
// writes for it (package render, oneRowSQLite).
func TestSeveralRowsIsOneTypedError(t *testing.T) {
	engines := threeEngines(t, []string{"CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)"},
		[]string{"CREATE TABLE t (a BIGINT)", "INSERT INTO t VALUES (1), (2)"})
	queries := map[string]string{
		"sqlite":   `SELECT (SELECT * FROM (SELECT "a" AS "v" FROM "t") GROUP BY NULL HAVING CASE WHEN COUNT(*) > 1 THEN json_extract('{}', 'more than one row returned by a subquery used as an expression') ELSE 1 END) AS "x"`,
		"duckdb":   `SELECT (SELECT "a" FROM "t") AS "x"`,
		"postgres": `SELECT (SELECT v FROM (VALUES (1), (2)) AS s(v)) AS "x"`,
	}
	for name, q := range engines {
		_, err := q.Query(context.Background(), queries[name], nil, 10)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		se := AsError(t, err)
		if se.Code != source.CodeQueryFailed || se.Hint != source.SeveralRowsHint || se.Msg != "the query failed: more than one row returned by a subquery used as an expression" {
			t.Errorf("%s: %s (hint %q), want %s with the several-rows hint", name, se, se.Hint, source.CodeQueryFailed)
		}
	}
}
