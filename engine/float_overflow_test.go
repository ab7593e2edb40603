package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a product of two floats beyond ±1.8e308 was reported as
// "integer overflow" with the advice to cast an operand to float, which
// the user had done: the advice cannot help, and the message sends them
// looking for an integer. On every engine a float result out of range
// says the float range and no cast to float; an integer overflow keeps
// the integer message and its advice.
func TestFloatOverflowSaysTheFloatRange(t *testing.T) {
	for _, en := range []struct {
		name string
		spec func(t *testing.T) DatasourceSpec
	}{
		{"sqlite", func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "m", Engine: "sqlite", RowLimit: 100, Path: sourcetest.TempDB(t,
				"CREATE TABLE m (id INTEGER, f REAL, n INTEGER, d DECIMAL(20,2))", "INSERT INTO m VALUES (1, 1e308, 9223372036854775807, 100000000000000000)")}
		}},
		{"duckdb", func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "m", Engine: "duckdb", RowLimit: 100, Path: sourcetest.DuckTempDB(t,
				"CREATE TABLE m (id INTEGER, f DOUBLE, n BIGINT, d DECIMAL(20,2))", "INSERT INTO m VALUES (1, 1e308, 9223372036854775807, 100000000000000000)")}
		}},
		{"postgres", func(t *testing.T) DatasourceSpec {
			f := sourcetest.NewPGFixture(t, "CREATE TABLE m (id integer, f double precision, n bigint, d numeric(20,2))",
				"INSERT INTO m VALUES (1, 1e308, 9223372036854775807, 100000000000000000)")
			return DatasourceSpec{ID: "m", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 100}
		}},
	} {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			times := func(col, lit string) []byte {
				return []byte(`{"select":[{"expr":{"kind":"binary","op":"*","left":{"kind":"column","table":"m","column":"` + col +
					`"},"right":{"kind":"literal","value":` + lit + `}},"alias":"x"}],"from":[{"table":"m","alias":"m"}]}`)
			}
			for _, c := range []struct {
				name        string
				plan        []byte
				msg, notMsg string
				castAdvice  bool
			}{
				{"floats", times("f", "10"), "beyond ±1.8e308", "integer", false},
				{"floats negative", times("f", "-10"), "beyond ±1.8e308", "integer", false},
				{"integers", times("n", "2"), "", "1.8e308", true},
				// a decimal beyond 10^28 is no integer: SQLite said "integer
				// overflow"
				{"decimals", times("d", "100000000000000"), "", "integer", true},
			} {
				_, err := e.RunPlan(context.Background(), "m", c.plan)
				var ee *Error
				if !errors.As(err, &ee) || ee.Code != CodeOverflow {
					t.Fatalf("%s: err = %v, want %s", c.name, err, CodeOverflow)
				}
				if !strings.Contains(ee.Msg, c.msg) || strings.Contains(ee.Msg, c.notMsg) ||
					strings.Contains(ee.Hint, "cast an operand to float") != c.castAdvice {
					t.Errorf("%s: %s (hint %q); want the message to say %q (not %q), cast-to-float advice %v", c.name, ee.Msg, ee.Hint, c.msg, c.notMsg, c.castAdvice)
				}
			}
		})
	}
}
