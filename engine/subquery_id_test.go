package engine

import "testing"

// The threat: every plan a client supplied to one datasource came back
// with the same sub-query id (its intent is always "supplied"), so a user
// tracing runs, or a host matching results to its plans, could not tell
// them apart. Ids are content hashes of what ran: two plans, two ids; the
// same plan again, the same id.
func TestSuppliedPlansHaveTheirOwnIDs(t *testing.T) {
	db := []string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)",
		"INSERT INTO t VALUES (1, 10), (2, 20)",
	}
	e := specEngine(t, everyEngine(db)[0].spec(t))
	sum := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"t","column":"v"}]},"alias":"s"}],"from":[{"table":"t","alias":"t"}]}`
	count := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"t","alias":"t"}]}`
	id := func(plan string) string {
		res := runAir(t, e, plan)
		if len(res.SubQueries) != 1 {
			t.Fatalf("%d sub-queries, want 1", len(res.SubQueries))
		}
		return res.SubQueries[0].ID
	}
	a, b, again := id(sum), id(count), id(sum)
	if a == b || a != again {
		t.Errorf("ids %s (sum), %s (count), %s (sum again): want two plans told apart and one plan the same", a, b, again)
	}
}
