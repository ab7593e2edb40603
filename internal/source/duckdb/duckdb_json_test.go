package duckdb

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// A DuckDB JSON document holding an integer beyond 2^53 (an order number,
// a snowflake id) must come back with every digit: the driver decodes JSON
// into float64s, which turned 12345678901234567891 into
// 12345678901234567000. The structured value and the human text both
// carry the document's own text, and the column type stays json, however
// the statement is written (parameters, a trailing semicolon or comment,
// duplicate output names, other columns around it).
func TestDuckDBJSONKeepsEveryDigit(t *testing.T) {
	const doc = `{"id": 12345678901234567891, "n": [9007199254740993, 1.5]}`
	d := openDuckTest(t, sourcetest.DuckTempDB(t,
		"CREATE TABLE t (k INTEGER, j JSON)",
		"INSERT INTO t VALUES (1, '"+doc+"'), (2, NULL)"), source.Options{})
	for _, tc := range []struct {
		name, sql string
		args      []any
		jsonCol   int
	}{
		{"alone", `SELECT j FROM t WHERE k = 1`, nil, 0},
		{"between columns", `SELECT k, j, k AS k FROM t WHERE k = 1`, nil, 1},
		{"parameter", `SELECT k, j FROM t WHERE k = ?`, []any{1}, 1},
		{"semicolon and comment", "SELECT j FROM t WHERE k = 1 ORDER BY k; -- the one row", nil, 0},
		{"cte", `WITH s AS (SELECT j AS "odd ""name""" FROM t) SELECT * FROM s WHERE "odd ""name""" IS NOT NULL`, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := d.Query(context.Background(), tc.sql, tc.args, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 1 {
				t.Fatalf("%d rows, want 1", len(res.Rows))
			}
			got := res.Rows[0][tc.jsonCol]
			if got != doc {
				t.Errorf("structured value %#v, want the document %s", got, doc)
			}
			if res.ColumnTypes[tc.jsonCol] != planast.TypeJSON {
				t.Errorf("column type %q, want json", res.ColumnTypes[tc.jsonCol])
			}
			b, _ := json.Marshal(res.Rows[0])
			if !strings.Contains(string(b), "12345678901234567891") || !strings.Contains(string(b), "9007199254740993") {
				t.Errorf("result JSON %s lost digits", b)
			}
			if text := cellfmt.Value(got, res.ColumnTypes[tc.jsonCol]); !strings.Contains(text, "12345678901234567891") {
				t.Errorf("text %q lost digits", text)
			}
		})
	}
	t.Run("names and order kept", func(t *testing.T) {
		res, err := d.Query(context.Background(), `SELECT k, j, k FROM t ORDER BY k DESC`, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(res.Columns, ",") != "k,j,k" || len(res.Rows) != 2 || res.Rows[0][1] != nil || res.Rows[1][1] != doc {
			t.Errorf("columns %v rows %v", res.Columns, res.Rows)
		}
	})
}
