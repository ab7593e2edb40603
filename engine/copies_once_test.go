package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: an event log imported twice in part holds rows that repeat
// another exactly, event id and all; a COUNT over it got two warnings of
// the one fact (the copies, and the event id's repeats with a grouping to
// find them), longer together than the answer. The copies are said once;
// an id repeated by rows that are no copies (a re-issue with another
// amount) is still said.
func TestCopiesAreSaidOnceWithTheirIDs(t *testing.T) {
	var rows []string
	for i := 1; i <= 40; i++ {
		rows = append(rows, fmt.Sprintf("('EV-%03d', %d)", i, i))
	}
	copies := "('EV-001', 1), ('EV-002', 2)"     // exact copies
	reissued := "('EV-003', 99), ('EV-004', 98)" // same id, other amount
	stmts := []string{
		"CREATE TABLE events (event_id TEXT, amount INTEGER)",
		"INSERT INTO events VALUES " + strings.Join(rows, ", ") + ", " + copies,
		"CREATE TABLE payments (payment_ref TEXT, amount INTEGER)",
		"INSERT INTO payments VALUES " + strings.Join(rows, ", ") + ", " + copies + ", " + reissued,
	}
	e := specEngine(t, everyEngine(stmts)[0].spec(t))
	count := func(table string) []string {
		res, err := e.RunPlan(context.Background(), "air", []byte(`{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "`+table+`", "alias": "t"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return res.Warnings
	}
	ws := count("events")
	if warningWith(ws, "repeat another row exactly") == "" || warningWith(ws, "is nearly unique") != "" {
		t.Errorf("events: warnings %q, want the copies said once, not the event id's repeats again", ws)
	}
	ws = count("payments")
	if warningWith(ws, "repeat another row exactly") == "" || warningWith(ws, "payments.payment_ref is nearly unique, but 4 rows repeat") == "" {
		t.Errorf("payments: warnings %q, want the copies and the reference repeated by re-issues", ws)
	}
}
