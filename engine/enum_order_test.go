package engine

import (
	"fmt"
	"testing"
)

// enumDB holds a level declared as an enum whose declared order ('low',
// 'high', '10') is no order of its text.
var enumDB = []string{
	"CREATE TYPE lvl AS ENUM ('low', 'high', '10')",
	"CREATE TABLE tasks (id INTEGER PRIMARY KEY, level lvl)",
	"INSERT INTO tasks VALUES (1, 'low'), (2, 'high'), (3, '10'), (4, NULL)",
}

// The threat: the same plan ordered an enum by its text on PostgreSQL
// (plans read an enum's text there) and by the enum's declared order on
// DuckDB ("trialing", "active", "cancelled"), so a top row, a MAX and a
// range filter answered differently by engine. An enum is text to a plan
// on every engine that has one, and its profile lists its text in that
// order.
func TestEnumsOrderAsTheirTextOnEveryEngine(t *testing.T) {
	for _, en := range everyEngine(enumDB)[1:] { // SQLite has no enums
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			col := `{"kind":"column","table":"t","column":"level"}`
			from := `"from":[{"table":"tasks","alias":"t"}]`
			for _, c := range []struct{ name, plan, want string }{
				{"order_by", `{"select":[{"expr":` + col + `,"alias":"l"}],` + from + `,"order_by":[{"expr":{"kind":"column","column":"l"}}]}`, "[[10] [high] [low] [<nil>]]"},
				{"min and max", `{"select":[{"expr":{"kind":"func","name":"MIN","args":[` + col + `]},"alias":"lo"},{"expr":{"kind":"func","name":"MAX","args":[` + col + `]},"alias":"hi"}],` + from + `}`, "[[10 low]]"},
				{"range", `{"select":[{"expr":{"kind":"column","table":"t","column":"id"},"alias":"id"}],` + from + `,"where":{"kind":"binary","op":">","left":` + col + `,"right":{"kind":"literal","value":"h"}},"order_by":[{"expr":{"kind":"column","column":"id"}}]}`, "[[1] [2]]"},
			} {
				if got := fmt.Sprint(runAir(t, e, c.plan).Rows); got != c.want {
					t.Errorf("%s: %s, want %s", c.name, got, c.want)
				}
			}
			for _, tb := range airSnapshot(t, e).Tables {
				for _, cl := range tb.Columns {
					if cl.Name == "level" && (cl.Profile == nil || fmt.Sprint(cl.Profile.SampleValues) != "[10 high low]") {
						t.Errorf("profile of level: %+v, want its text in text order", cl.Profile)
					}
				}
			}
		})
	}
}
