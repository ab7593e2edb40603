package engine

import (
	"context"
	"strings"
	"testing"
)

// The threat: a cost log exported twice in part holds rows that repeat
// another exactly, and has no id to show it; a SUM of its costs counts
// each copy and nothing in the result says so (a host found 43 such pairs
// only by grouping every column itself). Profiling counts the copies, the
// schema a planner reads says how many, and an aggregate that counts
// copies names the table, with the distinct subquery that reads each
// row once; MIN and MAX (a copy changes neither), a distinct subquery,
// and tables with a primary key or a column unique in every row are not
// said of. On every engine.
func TestCopiedRowsAreNamed(t *testing.T) {
	stmts := []string{
		"CREATE TABLE costs (station TEXT, day TEXT, amount DECIMAL(10,2), note TEXT)",
		"INSERT INTO costs VALUES ('north', '2024-01-02', 10.50, NULL), ('north', '2024-01-02', 10.50, NULL), ('south', '2024-01-03', 7.25, 'fuel')," +
			" ('south', '2024-01-03', 7.25, 'fuel'), ('south', '2024-01-03', 7.25, 'fuel'), ('east', '2024-01-04', 3.00, 'tyre'), ('east', '2024-01-04', 3.00, 'tyres')",
		"CREATE TABLE keyed (id INTEGER PRIMARY KEY, amount DECIMAL(10,2))",
		"INSERT INTO keyed VALUES (1, 5.00), (2, 5.00)",
		"CREATE TABLE numbered (line INTEGER, amount DECIMAL(10,2))",
		"INSERT INTO numbered VALUES (1, 5.00), (2, 5.00), (3, 5.00)",
	}
	agg := func(fn, table string) string {
		return `{"select": [{"expr": {"kind": "func", "name": "` + fn + `", "args": [{"kind": "column", "table": "t", "column": "amount"}]}, "alias": "v"}], "from": [{"table": "` + table + `", "alias": "t"}]}`
	}
	distinct := `{"select": [{"expr": {"kind": "func", "name": "SUM", "args": [{"kind": "column", "table": "d", "column": "amount"}]}, "alias": "v"}], "from": [{"alias": "d", "subquery": ` +
		`{"distinct": true, "select": [{"expr": {"kind": "column", "table": "t", "column": "station"}}, {"expr": {"kind": "column", "table": "t", "column": "day"}}, {"expr": {"kind": "column", "table": "t", "column": "amount"}}, {"expr": {"kind": "column", "table": "t", "column": "note"}}], "from": [{"table": "costs", "alias": "t"}]}}]}`
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, tb := range airSnapshot(t, e).Tables {
				want := map[string]int64{"costs": 3}[tb.Name] // NULL equal to NULL; 'tyre' and 'tyres' differ
				if tb.DuplicateRows != want {
					t.Errorf("%s: %d rows counted as copies, want %d", tb.Name, tb.DuplicateRows, want)
				}
			}
			for _, c := range []struct {
				plan string
				want bool
			}{
				{agg("SUM", "costs"), true},
				{agg("COUNT", "costs"), true},
				{agg("MAX", "costs"), false},
				{distinct, false},
				{agg("SUM", "keyed"), false},
				{agg("SUM", "numbered"), false},
			} {
				res, err := e.RunPlan(context.Background(), "air", []byte(c.plan))
				if err != nil {
					t.Fatalf("%s: %v", c.plan, err)
				}
				w := warningWith(res.Warnings, "repeat another row exactly")
				if c.want != (w != "") || c.want && !strings.Contains(w, `table "costs" holds 3 rows that repeat another row exactly`) {
					t.Errorf("%s: warnings %q, want the copies named: %v", c.plan, res.Warnings, c.want)
				}
			}
		})
	}
}
