package engine

import (
	"fmt"
	"testing"
)

// The threat: a comparison selected as a value ("is the invoice large?")
// came back from SQLite as 1 and 0 under column type boolean, and as true
// and false from DuckDB and PostgreSQL: one plan, two answers a client
// reads differently (1 is no JSON boolean). Every engine returns true and
// false, and a boolean column the same.
func TestBooleansAreBooleansOnEveryEngine(t *testing.T) {
	for _, en := range everyEngine([]string{"CREATE TABLE inv (id INTEGER PRIMARY KEY, total INTEGER, paid BOOLEAN)",
		"INSERT INTO inv VALUES (1, 3, TRUE), (2, 9, FALSE)"}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, `{"select":[{"expr":{"kind":"binary","op":">","left":{"kind":"column","table":"i","column":"total"},"right":{"kind":"literal","value":5}},"alias":"big"},{"expr":{"kind":"column","table":"i","column":"paid"}}],"from":[{"table":"inv","alias":"i"}],"order_by":[{"expr":{"kind":"column","table":"i","column":"id"}}]}`)
			if got := fmt.Sprintf("%#v", res.Rows); got != "[][]interface {}{[]interface {}{false, true}, []interface {}{true, false}}" {
				t.Errorf("rows %s: want JSON booleans", got)
			}
		})
	}
}
