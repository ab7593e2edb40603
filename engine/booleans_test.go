package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
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

// The threat: SQLite stores anything in a BOOLEAN column: a trial's
// If_first_show held venue names, another's flag held 2 and 'yes'. They
// came back as they were under column type boolean, one column holding
// true, 2 and 'St. Mirren Park', and a filter on it matched what SQLite's
// own truth said. The column reads as the booleans the other engines could
// hold (1 and 0, and the text PostgreSQL reads as one: 'yes', 'FALSE'),
// the rest as NULL with the warning every such column gets, and its cast
// to text shows them as stored.
func TestBooleanColumnHoldingOtherValues(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE s (id INTEGER PRIMARY KEY, first BOOLEAN)",
		"INSERT INTO s VALUES (1, 1), (2, 0), (3, 2), (4, 'yes'), (5, 'St. Mirren Park'), (6, NULL), (7, 'FALSE')")
	e := airEngine(t, db, nil)
	col := `{"kind":"column","table":"s","column":"first"}`
	res := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"s","column":"id"}},{"expr":`+col+`},{"expr":{"kind":"cast","type":"text","expr":`+col+`},"alias":"stored"}],"from":[{"table":"s","alias":"s"}],"order_by":[{"expr":{"kind":"column","table":"s","column":"id"}}]}`)
	if got := fmt.Sprint(res.Rows); got != "[[1 true 1] [2 false 0] [3 <nil> 2] [4 true 1] [5 <nil> St. Mirren Park] [6 <nil> <nil>] [7 false 0]]" {
		t.Errorf("rows %s", got)
	}
	if w := warningWith(res.Warnings, `"first" holds 2 values`); !strings.Contains(w, "read them as NULL") {
		t.Errorf("warnings %q: want the 2 values no boolean named", res.Warnings)
	}
	kept := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"s","alias":"s"}],"where":`+col+`}`)
	if fmt.Sprint(kept.Rows) != "[[2]]" {
		t.Errorf("rows where first holds: %v, want 2 (1 and 'yes'; not 2 or a venue)", kept.Rows)
	}
}
