package engine

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: two rows of NaN among thousands made "the average discount"
// NaN, and MAX came back NaN (it sorts above every number), with nothing
// said. An aggregate of a column whose profile holds NaN or an infinity
// names it and the where that keeps the finite values; that where earns
// nothing, and neither does a column of finite values.
func TestAggregatesOfColumnsHoldingNaNAreNamed(t *testing.T) {
	for _, en := range []struct {
		name string
		spec func(t *testing.T) DatasourceSpec
	}{
		{"duckdb", func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "air", Engine: "duckdb", RowLimit: 1000, Path: sourcetest.DuckTempDB(t,
				"CREATE TABLE lines (id INTEGER, discount DOUBLE, price DOUBLE)",
				"INSERT INTO lines VALUES (1, 0.1, 10), (2, CAST('NaN' AS DOUBLE), 20), (3, 0.2, 30)")}
		}},
		{"postgres", func(t *testing.T) DatasourceSpec {
			f := sourcetest.NewPGFixture(t, "CREATE TABLE lines (id integer, discount double precision, price double precision)",
				"INSERT INTO lines VALUES (1, 0.1, 10), (2, 'NaN', 20), (3, 0.2, 30)")
			return DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000}
		}},
	} {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			agg := func(col, where string) []byte {
				return []byte(`{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"l","column":"` + col + `"}]},"alias":"a"}],"from":[{"table":"lines","alias":"l"}]` + where + `}`)
			}
			finite := `,"where":{"kind":"binary","op":"<","left":{"kind":"func","name":"ABS","args":[{"kind":"column","table":"l","column":"discount"}]},"right":{"kind":"literal","type":"decimal","value":"1e308"}}`
			for _, c := range []struct {
				name  string
				plan  []byte
				named bool
			}{
				{"the average of a column holding NaN", agg("discount", ""), true},
				{"the finite values kept", agg("discount", finite), false},
				{"a column of numbers", agg("price", ""), false},
			} {
				res, err := e.RunPlan(context.Background(), "air", c.plan)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if got := warningWith(res.Warnings, "holds NaN or an infinity") != ""; got != c.named {
					t.Errorf("%s: rows %v warnings %q, want it named: %v", c.name, res.Rows, res.Warnings, c.named)
				}
				if c.name == "the finite values kept" && len(res.Rows) == 1 {
					if a, ok := res.Rows[0][0].(float64); !ok || a < 0.149 || a > 0.151 {
						t.Errorf("the where the warning gives: average %v, want 0.15", res.Rows[0][0])
					}
				}
			}
		})
	}
}
