package sourcetest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// An arithmetic result beyond its type's range is an error the caller can
// act on: the same ARITHMETIC_OVERFLOW code with a hint on every engine,
// never a generic QUERY_FAILED on one engine and a code on another. The
// statements are what the renderer writes (package render, overflow.go).
func TestOverflowIsOneTypedError(t *testing.T) {
	engines := threeEngines(t, []string{"CREATE TABLE t (a INTEGER)"}, []string{"CREATE TABLE t (a BIGINT)"})
	queries := map[string][]string{
		"sqlite": {
			"SELECT abs(-9223372036854775807 - 1)", // the renderer's range check
			"SELECT sum(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT 1)",
			// a float div beyond int64 (render: SQLite.IntDiv)
			"SELECT CAST(CASE WHEN (CAST(1e19 AS REAL) / NULLIF(1, 0)) >= 9223372036854775808.0 OR (CAST(1e19 AS REAL) / NULLIF(1, 0)) < -9223372036854775808.0 THEN abs(-9223372036854775807 - 1) ELSE (CAST(1e19 AS REAL) / NULLIF(1, 0)) END AS INTEGER)",
		},
		"duckdb": {
			"SELECT CAST(9223372036854775807 AS BIGINT) + 1",
			"SELECT CAST(SUM(x) AS BIGINT) FROM (VALUES (9223372036854775807), (1)) AS v(x)",
			"SELECT CAST(CAST(1e10 AS DECIMAL(38,10)) * CAST(1e10 AS DECIMAL(38,10)) AS DECIMAL(38,10))",
			"SELECT CAST(TRUNC(NULLIF(CAST(1e19 AS DOUBLE) / NULLIF(1, 0), CAST('NaN' AS DOUBLE))) AS BIGINT)",
			"SELECT CAST(TRUNC(NULLIF(CAST('inf' AS DOUBLE) / NULLIF(2, 0), CAST('NaN' AS DOUBLE))) AS BIGINT)",
		},
		"postgres": {
			"SELECT CAST(9223372036854775807 AS BIGINT) + 1",
			"SELECT CAST(SUM(x) AS BIGINT) FROM (VALUES (9223372036854775807), (1)) AS v(x)",
			"SELECT CAST(CAST(1e20 AS NUMERIC) AS NUMERIC(38,20))",
			"SELECT CAST(TRUNC(NULLIF(CAST(1e19 AS DOUBLE PRECISION) / NULLIF(1, 0), CAST('NaN' AS DOUBLE PRECISION))) AS BIGINT)",
			"SELECT CAST(TRUNC(NULLIF(CAST('Infinity' AS DOUBLE PRECISION) / NULLIF(2, 0), CAST('NaN' AS DOUBLE PRECISION))) AS BIGINT)",
		},
	}
	for name, q := range engines {
		for _, sql := range queries[name] {
			_, err := q.Query(context.Background(), sql, nil, 10)
			if err == nil {
				t.Errorf("%s: %s: no error", name, sql)
				continue
			}
			se := AsError(t, err)
			if se.Code != source.CodeOverflow || se.Hint != source.OverflowHint || !strings.Contains(se.Hint, "cast an operand to float") {
				t.Errorf("%s: %s: %s (hint %q), want %s with the overflow hint", name, sql, se, se.Hint, source.CodeOverflow)
			}
		}
	}
}

// querier is what the typed-error tests ask of every adapter.
type querier interface {
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// threeEngines opens a SQLite and a DuckDB database made by their
// statements, and the PostgreSQL test database when NL2SQL_TEST_PG_DSN is
// set (or under CI, where its absence fails), by engine name.
func threeEngines(t *testing.T, sqliteStmts, duckStmts []string) map[string]querier {
	t.Helper()
	engines := map[string]querier{
		"sqlite": Open(t, sqlite.OpenSQLite, TempDB(t, sqliteStmts...), source.Options{}),
		"duckdb": Open(t, duckdb.OpenDuckDB, DuckTempDB(t, duckStmts...), source.Options{}),
	}
	if os.Getenv("NL2SQL_TEST_PG_DSN") != "" || os.Getenv("CI") != "" {
		engines["postgres"] = Open(t, postgres.OpenPostgres, pgtest.DSN(t), source.Options{AllowWritableRole: true})
	} else {
		t.Log("NL2SQL_TEST_PG_DSN is not set: PostgreSQL part not tested")
	}
	return engines
}
