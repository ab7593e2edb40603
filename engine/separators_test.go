package engine

import (
	"fmt"
	"strings"
	"testing"
)

// The threat: a status written 'checked_out', 'Checked Out' and
// 'checkedout' by three systems: = 'checked_out' counted 46 of 84 stays
// with no warning (no two values were equal once case and spaces were
// set aside, so none was a spelling of another), and GROUP BY status made
// three groups of one status. Word separators are set aside too: the
// filter names the other spellings with an IN that counts every stay,
// and the grouping names the split. Codes with digits keep theirs.
func TestSpellingsThatDifferInWordSeparatorsAreNamed(t *testing.T) {
	stmts := []string{
		"CREATE TABLE stays (id INTEGER PRIMARY KEY, status TEXT, room TEXT)",
		"INSERT INTO stays VALUES (1, 'checked_out', 'A-12'), (2, 'Checked Out', 'A12'), (3, 'checkedout', 'B-1'), (4, 'checked_out', 'B1'), (5, 'in_house', 'C-3')",
	}
	count := func(where string) string {
		return `{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "stays", "alias": "s"}], "where": ` + where + `}`
	}
	eq := func(col, v string) string {
		return `{"kind": "binary", "op": "=", "left": {"kind": "column", "table": "s", "column": "` + col + `"}, "right": {"kind": "literal", "value": "` + v + `"}}`
	}
	group := `{"select": [{"expr": {"kind": "column", "table": "s", "column": "status"}, "alias": "status"}, {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "stays", "alias": "s"}], "group_by": [{"kind": "column", "table": "s", "column": "status"}]}`
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			run := func(plan string) *Result { return runAir(t, e, plan) }
			w := warningWith(run(count(eq("status", "checked_out"))).Warnings, "but the column also stores")
			if !strings.Contains(w, `"Checked Out"`) || !strings.Contains(w, `"checkedout"`) {
				t.Fatalf("warning %q: want 'Checked Out' and 'checkedout' named", w)
			}
			_, fix, _ := strings.Cut(w, "use ")
			if got := run(count(fix)); fmt.Sprint(got.Rows) != "[[4]]" {
				t.Errorf("the warning's IN %s counts %v, want 4", fix, got.Rows)
			}
			if w := warningWith(run(group).Warnings, "makes a group of each spelling"); !strings.Contains(w, `"checkedout"`) {
				t.Errorf("grouping by status: warning %q, want the split named", w)
			}
			if w := warningWith(run(count(eq("room", "A-12"))).Warnings, "but the column also stores"); w != "" {
				t.Errorf("codes with digits taken for spellings: %q", w)
			}
		})
	}
}
