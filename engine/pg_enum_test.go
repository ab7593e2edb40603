package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A PostgreSQL enum is text to a plan, but its engine type takes no LIKE
// ("operator does not exist: lvl ~~ text"), no UPPER ("collations are not
// supported by type lvl"), no cast of its text to a number (the text
// cast's regular expression) and refuses a literal it does not list
// ("invalid input value for enum lvl"): each of those plans failed where
// the same plan over a text column answered. Plans read an enum's text.
func TestPostgresEnumReadsAsText(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TYPE lvl AS ENUM ('low', 'high', '10')",
		"CREATE TABLE tasks (id INTEGER PRIMARY KEY, level lvl)",
		"INSERT INTO tasks VALUES (1, 'low'), (2, 'high'), (3, '10'), (4, NULL)")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	col := `{"kind":"column","table":"t","column":"level"}`
	from := `"from":[{"table":"tasks","alias":"t"}]`
	ids := func(where string) string {
		return `{"select":[{"expr":{"kind":"column","table":"t","column":"id"},"alias":"id"}],` + from + `,"where":` + where + `,"order_by":[{"expr":{"kind":"column","column":"id"}}]}`
	}
	for _, c := range []struct{ name, plan, want string }{
		{"like", ids(`{"kind":"like","expr":` + col + `,"pattern":{"kind":"literal","value":"%i%"}}`), "[[2]]"},
		{"a value the enum does not list", ids(`{"kind":"binary","op":"=","left":` + col + `,"right":{"kind":"literal","value":"urgent"}}`), "[]"},
		{"a value it lists", ids(`{"kind":"binary","op":"=","left":` + col + `,"right":{"kind":"literal","value":"low"}}`), "[[1]]"},
		{"upper", `{"select":[{"expr":{"kind":"func","name":"UPPER","args":[` + col + `]},"alias":"u"}],` + from + `,"order_by":[{"expr":{"kind":"column","column":"u"}}]}`, "[[10] [HIGH] [LOW] [<nil>]]"},
		{"its text cast to a number", `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"integer","expr":` + col + `}]},"alias":"s"}],` + from + `}`, "[[10]]"},
	} {
		res, err := e.RunPlan(context.Background(), "air", []byte(c.plan))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := fmt.Sprint(res.Rows); got != c.want {
			t.Errorf("%s: rows %s, want %s", c.name, got, c.want)
		}
	}
}
