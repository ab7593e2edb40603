package engine

import (
	"context"
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
// to text shows every value as stored ('yes', not the '1' it reads as).
func TestBooleanColumnHoldingOtherValues(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE s (id INTEGER PRIMARY KEY, first BOOLEAN)",
		"INSERT INTO s VALUES (1, 1), (2, 0), (3, 2), (4, 'yes'), (5, 'St. Mirren Park'), (6, NULL), (7, 'FALSE')")
	e := airEngine(t, db, nil)
	col := `{"kind":"column","table":"s","column":"first"}`
	res := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"s","column":"id"}},{"expr":`+col+`},{"expr":{"kind":"cast","type":"text","expr":`+col+`},"alias":"stored"}],"from":[{"table":"s","alias":"s"}],"order_by":[{"expr":{"kind":"column","table":"s","column":"id"}}]}`)
	if got := fmt.Sprint(res.Rows); got != "[[1 true 1] [2 false 0] [3 <nil> 2] [4 true yes] [5 <nil> St. Mirren Park] [6 <nil> <nil>] [7 false FALSE]]" {
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

// The threat: a BOOLEAN column holding 1, 0, 'yes' and 'true' and nothing
// unreadable was read as SQLite reads it, where 'yes' and 'true' are
// false: "how many are active" counted 1 of 3, and grouping made two
// "true" groups and a "yes" one, with no warning. Booleans spelt as text
// read as booleans whether or not the column also holds values that are
// none; the result says which spellings it read as which, since neither
// the rows nor a cast to text show them to a host auditing the count.
func TestBooleanColumnSpeltAsText(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE subs (id INTEGER PRIMARY KEY, active BOOLEAN)",
		"INSERT INTO subs VALUES (1, 1), (2, 0), (3, 'yes'), (4, 'true'), (5, NULL), (6, 'no')")
	e := airEngine(t, db, nil)
	col := `{"kind":"column","table":"s","column":"active"}`
	kept := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"subs","alias":"s"}],"where":`+col+`}`)
	said := `"subs"."active" holds 3 values spelt as text; the plan reads 'true' and 'yes' as true and 'no' as false`
	if fmt.Sprint(kept.Rows) != "[[3]]" || len(kept.Warnings) != 1 || !strings.Contains(kept.Warnings[0], said) {
		t.Errorf("rows where active: %v (warnings %q), want 3 (1, 'yes', 'true') and %q", kept.Rows, kept.Warnings, said)
	}
	groups := runAir(t, e, `{"select":[{"expr":`+col+`,"alias":"active"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"subs","alias":"s"}],"group_by":[`+col+`],"order_by":[{"expr":{"kind":"column","column":"active"}}]}`)
	if got := fmt.Sprint(groups.Rows); got != "[[false 2] [true 3] [<nil> 1]]" {
		t.Errorf("groups %s, want false 2, true 3, NULL 1", got)
	}
}

// Threat: a SQLite view filtering `WHERE is_public = 1` over a boolean
// column that also holds 'yes' and 'true' counts 3 public events, where a
// plan over the table reads those spellings as true and counts 5: "how
// many public events?" had two answers by which of them a planner picked,
// and nothing said why. A result that reads the view says so, with the
// spellings and the count; the table's own result, and a view that never
// names the column, are told nothing.
func TestViewReadingBooleansSpeltAsTextIsWarned(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE events (id INTEGER PRIMARY KEY, city TEXT, is_public BOOLEAN)",
		"INSERT INTO events VALUES (1, 'Paris', 1), (2, 'Lyon', 0), (3, 'Paris', 'yes'), (4, 'Nice', 'true'), (5, 'Lyon', 'no'), (6, 'Nice', 1), (7, 'Paris', 1)",
		"CREATE VIEW public_events AS SELECT id, city FROM events WHERE is_public = 1",
		"CREATE VIEW paris_events AS SELECT id, is_public FROM events WHERE city = 'Paris'")
	e := airEngine(t, db, nil)
	count := func(from string) (string, []string) {
		res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"`+from+`","alias":"x"}]}`))
		if err != nil {
			t.Fatalf("%s: %v", from, err)
		}
		return fmt.Sprint(res.Rows[0][0]), res.Warnings
	}
	n, ws := count("public_events")
	want := `view "public_events" reads "events"."is_public" as SQLite does, taking 'true' and 'yes' (of its 3 values spelt as text) for false, where a plan over "events" reads them as true`
	if n != "3" || warningWith(ws, want) == "" {
		t.Errorf("public_events: %s rows, warnings %q; want 3 and %q", n, ws, want)
	}
	for _, from := range []string{"events", "paris_events"} {
		if _, ws := count(from); warningWith(ws, "spelt as text") != "" {
			t.Errorf("%s: warnings %q, want none of text spellings", from, ws)
		}
	}
}
