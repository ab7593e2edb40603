package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: SQLite declares a foreign key from a text column to an integer
// one (visit.visitor_ID TEXT → visitor.ID INTEGER), and the plan language
// refuses a join of text with a number. A host that joins on the declared
// key, as the guide says to, is refused with no way forward and gives up
// or joins something else. The refusal must give the join condition that
// works, and that condition, pasted into the plan, must find the rows.
func TestJoinOfKeysOfDifferentTypesGetsAWorkingCondition(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE visitor (ID INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE visit (id INTEGER PRIMARY KEY, visitor_ID TEXT REFERENCES visitor(ID), spent REAL)",
		"INSERT INTO visitor VALUES (1, 'Ann'), (2, 'Bo')",
		"INSERT INTO visit VALUES (1, '1', 10), (2, '1', 5), (3, '2', 7)")
	plan := func(join string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"v","column":"name"},"alias":"name"},` +
			`{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"t","column":"spent"}]},"alias":"spent"}],` +
			`"from":[{"table":"visit","alias":"t"},{"table":"visitor","alias":"v"}],"joins":[` + join + `],` +
			`"group_by":[{"kind":"column","table":"v","column":"name"}],"order_by":[{"expr":{"kind":"column","column":"name"}}]}`)
	}
	e := airEngine(t, db, nil)
	_, err := e.RunPlan(context.Background(), "air", plan(`{"type":"inner","left":"t","right":"v","on":[{"left_column":"visitor_ID","right_column":"ID"}]}`))
	ee := AsError(err)
	if ee == nil || len(ee.Issues) != 1 || !strings.Contains(ee.Issues[0].Hint, `"condition": `) {
		t.Fatalf("join on keys of different types: %v, want one issue whose hint gives a join condition", err)
	}
	cond := ee.Issues[0].Hint[strings.Index(ee.Issues[0].Hint, `"condition": `)+len(`"condition": `):]
	cond = cond[:strings.LastIndex(cond, "}")+1]
	res, err := e.RunPlan(context.Background(), "air", plan(`{"type":"inner","left":"t","right":"v","on":[],"condition":`+cond+`}`))
	if err != nil {
		t.Fatalf("the hint's condition does not run: %v\n%s", err, cond)
	}
	if got := fmt.Sprint(res.Rows); got != "[[Ann 15] [Bo 7]]" {
		t.Errorf("rows %s, want Ann 15, Bo 7", got)
	}
}

// Threat: a year or an age stored as text (museum.Open_Year '2010') is
// compared with a number; the refusal must give the cast that works, and
// that cast, pasted into the plan, must find the rows.
func TestTextComparedWithANumberGetsAWorkingCast(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE museum (id INTEGER PRIMARY KEY, name TEXT, open_year TEXT)",
		"INSERT INTO museum VALUES (1, 'Old', '2001'), (2, 'New', '2013'), (3, 'Odd', 'n/a')")
	plan := func(left string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"m","column":"name"},"alias":"name"}],"from":[{"table":"museum","alias":"m"}],` +
			`"where":{"kind":"binary","op":">","left":` + left + `,"right":{"kind":"literal","value":2010}}}`)
	}
	e := airEngine(t, db, nil)
	_, err := e.RunPlan(context.Background(), "air", plan(`{"kind":"column","table":"m","column":"open_year"}`))
	ee := AsError(err)
	if ee == nil || len(ee.Issues) != 1 || !strings.Contains(ee.Issues[0].Hint, `{"kind":"cast"`) {
		t.Fatalf("text > 2010: %v, want one issue whose hint gives the cast", err)
	}
	h := ee.Issues[0].Hint
	cast := h[strings.Index(h, `{"kind":"cast"`):]
	cast = cast[:strings.Index(cast, `"type":"integer"}`)+len(`"type":"integer"}`)]
	res, err := e.RunPlan(context.Background(), "air", plan(cast))
	if err != nil {
		t.Fatalf("the hint's cast does not run: %v\n%s", err, cast)
	}
	if got := fmt.Sprint(res.Rows); got != "[[New]]" {
		t.Errorf("rows %s, want New", got)
	}
}
