package engine

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: SQLite SQL's COUNT(cancelled_at) / COUNT(*) lifts to div,
// SQLite's integer division, and a churn rate came back 0 for every plan
// with no word. A ratio of aggregates that is 0 in every row says that
// div is whole-number division and names "/"; the float quotient is told
// nothing.
func TestWholeNumberRatioOfCountsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE subs (id INTEGER PRIMARY KEY, plan TEXT, cancelled_at TEXT)",
		"INSERT INTO subs VALUES (1, 'a', NULL), (2, 'a', '2024-01-01'), (3, 'b', NULL), (4, 'b', NULL), (5, 'b', '2024-02-01')")
	e := airEngine(t, db, nil)
	ratio := func(op string) string {
		return `{"select":[{"expr":{"kind":"column","table":"s","column":"plan"},"alias":"plan"},{"expr":{"kind":"binary","op":"` + op + `","left":{"kind":"func","name":"COUNT","args":[{"kind":"column","table":"s","column":"cancelled_at"}]},"right":{"kind":"func","name":"COUNT","args":[]}},"alias":"churn"}],` +
			`"from":[{"table":"subs","alias":"s"}],"group_by":[{"kind":"column","table":"s","column":"plan"}]}`
	}
	const said = `"churn" divides two aggregates with div`
	if res := runAir(t, e, ratio("div")); warningWith(res.Warnings, said) == "" {
		t.Errorf("div: rows %v, warnings %q, want %q", res.Rows, res.Warnings, said)
	}
	// a group whose every row is cancelled truncates to 1, not 0: the
	// shares still read as whole numbers
	db2 := sourcetest.TempDB(t, "CREATE TABLE subs (id INTEGER PRIMARY KEY, plan TEXT, cancelled_at TEXT)",
		"INSERT INTO subs VALUES (1, 'a', '2024-01-03'), (2, 'a', '2024-01-01'), (3, 'b', NULL), (4, 'b', NULL), (5, 'b', '2024-02-01')")
	if res := runAir(t, airEngine(t, db2, nil), ratio("div")); warningWith(res.Warnings, said) == "" {
		t.Errorf("div of 1 and 0: rows %v, warnings %q, want %q", res.Rows, res.Warnings, said)
	}
	if res := runAir(t, e, ratio("/")); warningWith(res.Warnings, said) != "" {
		t.Errorf("/: warnings %q, want no word of div", res.Warnings)
	}
}
