package engine

import (
	"fmt"
	"testing"
)

// The threat: the same plan answered 123456789012345678901234567890 on
// PostgreSQL and 1.2345678901234568e+29 on SQLite, which reads every
// number past 64-bit integers as a double, with nothing said. On SQLite a
// literal the nearest double does not read back as is named with the
// number SQLite uses; a literal a double holds as written (19.99), and
// every literal on DuckDB and PostgreSQL, earn nothing.
func TestLiteralsSQLiteCannotHoldAreNamed(t *testing.T) {
	for _, en := range everyEngine([]string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, amount INTEGER)",
		"INSERT INTO t VALUES (1, 5)",
	}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				value string
				named bool
			}{
				{"123456789012345678901234567890", true},
				{`"12345678901234567.89"`, true},
				{"19.99", false},
				{"0.1", false},
			} {
				lit := fmt.Sprintf(`{"kind":"literal","type":"decimal","value":%s}`, c.value)
				plan := `{"select":[{"expr":` + lit + `,"alias":"x"}],"from":[{"table":"t","alias":"t"}],"where":{"kind":"binary","op":"<","left":{"kind":"column","table":"t","column":"amount"},"right":` + lit + `}}`
				res := runAir(t, e, plan)
				w := warningWith(res.Warnings, "has more digits than SQLite holds")
				if want := c.named && en.name == "sqlite"; (w != "") != want {
					t.Errorf("%s: rows %v warnings %q, want it named: %v", c.value, res.Rows, res.Warnings, want)
				}
			}
		})
	}
}
