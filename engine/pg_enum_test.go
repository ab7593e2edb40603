package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A PostgreSQL enum, inet, cidr or bit string is text to a plan, but its
// engine type takes no LIKE ("operator does not exist: lvl ~~ text"), no
// UPPER ("collations are not supported by type inet"), no cast of its
// text to a number (the text cast's regular expression) and refuses a
// literal it cannot read ("invalid input value for enum lvl", "invalid
// input syntax for type inet"): each of those plans failed where the
// same plan over a text column answered. Plans read their text, as
// results show it (an inet host address without /32), and the values
// the profile lists are that text, so a filter copied from them matches.
func TestPostgresTextOfOtherTypes(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TYPE lvl AS ENUM ('low', 'high', '10')",
		"CREATE TABLE tasks (id INTEGER PRIMARY KEY, level lvl, ip inet, net cidr, flags bit(4))",
		"INSERT INTO tasks VALUES (1, 'low', '10.0.0.1', '10.0.0.0/8', '1010'), (2, 'high', '192.168.1.20/24', '192.168.0.0/16', '0001'), (3, '10', NULL, NULL, NULL), (4, NULL, NULL, NULL, NULL)")
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
		{"an address as results show it", ids(`{"kind":"binary","op":"=","left":{"kind":"column","table":"t","column":"ip"},"right":{"kind":"literal","value":"10.0.0.1"}}`), "[[1]]"},
		{"text no address reads", ids(`{"kind":"binary","op":"=","left":{"kind":"column","table":"t","column":"ip"},"right":{"kind":"literal","value":"unknown"}}`), "[]"},
		{"like of a network", ids(`{"kind":"like","expr":{"kind":"column","table":"t","column":"net"},"pattern":{"kind":"literal","value":"192.%"}}`), "[[2]]"},
		{"upper of bits", ids(`{"kind":"binary","op":"=","left":{"kind":"func","name":"UPPER","args":[{"kind":"column","table":"t","column":"flags"}]},"right":{"kind":"literal","value":"1010"}}`), "[[1]]"},
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
	for _, c := range airSnapshot(t, e).Tables[0].Columns {
		if c.Name == "ip" && (c.Profile == nil || !c.Profile.AllValues || fmt.Sprint(c.Profile.SampleValues) != "[10.0.0.1 192.168.1.20/24]") {
			t.Errorf("ip's profile %+v: want the values as results show them", c.Profile)
		}
	}
}

// The threat: a plan that casts an enum to text, as the portable types
// allow, ran as CAST(CAST("t"."level" AS TEXT) AS TEXT): a host reading
// the SQL took the second cast for a mistake of the server's. A column
// already read as its text is cast once; the values are the same.
func TestPostgresTextOfOtherTypesIsCastOnce(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TYPE lvl AS ENUM ('low', 'high')",
		"CREATE TABLE tasks (id INTEGER PRIMARY KEY, level lvl, ip inet)",
		"INSERT INTO tasks VALUES (1, 'low', '10.0.0.1'), (2, 'high', '192.168.1.20/24')")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	for _, c := range []struct{ column, once, want string }{
		{"level", `CAST("t"."level" AS TEXT)`, "[[high] [low]]"},
		{"ip", `abbrev("t"."ip")`, "[[10.0.0.1] [192.168.1.20/24]]"},
	} {
		plan := `{"select":[{"expr":{"kind":"cast","type":"text","expr":{"kind":"column","table":"t","column":"` + c.column + `"}},"alias":"v"}],"from":[{"table":"tasks","alias":"t"}],"order_by":[{"expr":{"kind":"column","column":"v"}}]}`
		res, err := e.RunPlan(context.Background(), "air", []byte(plan))
		if err != nil {
			t.Fatalf("%s: %v", c.column, err)
		}
		if got := fmt.Sprint(res.Rows); got != c.want || !strings.Contains(res.SQL, c.once) || strings.Contains(res.SQL, "CAST("+c.once) {
			t.Errorf("cast of %s to text: rows %s, SQL %s; want %s, %s cast once", c.column, got, res.SQL, c.want, c.once)
		}
	}
}
