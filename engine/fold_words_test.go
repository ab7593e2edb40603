package engine

import (
	"fmt"
	"strings"
	"testing"
)

// The threat: claims whose status is written approved/Approved/APPROVED/
// accepted, rejected/Rejected/denied/DECLINED and pending/Pending/
// submitted/in_review. The split-group warning said "to merge them, select
// and group by LOWER(status)"; a host that did so still had 8 groups
// (accepted apart from approved, denied apart from rejected) and nothing
// said so. The warning names the values its fold leaves apart, as many as
// the grouping it advises makes, without calling them one value; a column
// the fold merges whole says nothing more.
func TestFoldNamesTheWordsItLeavesApart(t *testing.T) {
	stmts := []string{
		"CREATE TABLE claims (id INTEGER PRIMARY KEY, status TEXT, region TEXT)",
		"INSERT INTO claims VALUES (1, 'approved', 'north'), (2, 'Approved', 'North'), (3, 'APPROVED', 'NORTH'), (4, 'accepted', 'south'), " +
			"(5, 'rejected', 'South'), (6, 'Rejected', 'north'), (7, 'denied', 'north'), (8, 'DECLINED', 'south'), " +
			"(9, 'pending', 'north'), (10, 'Pending', 'south'), (11, 'submitted', 'north'), (12, 'in_review', 'south')",
	}
	group := func(x string) string {
		return `{"select": [{"expr": ` + x + `, "alias": "k"}, {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "claims", "alias": "c"}], "group_by": [{"kind": "column", "column": "k"}]}`
	}
	col := func(c string) string { return `{"kind": "column", "table": "c", "column": "` + c + `"}` }
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				column string
				remain []string // the values the advised fold leaves apart; nil: one value each
			}{
				{"status", []string{"accepted", "approved", "declined", "denied", "in_review", "pending", "rejected", "submitted"}},
				{"region", []string{"north", "south"}},
			} {
				w := warningWith(runAir(t, e, group(col(c.column))).Warnings, "to merge them, select and group by ")
				_, fix, ok := strings.Cut(w, "to merge them, select and group by ")
				if !ok {
					t.Fatalf("grouping by %s: no split-group warning", c.column)
				}
				t.Log(w)
				fix, _, _ = strings.Cut(fix, "; ") // the fix ends the warning, or an abbreviation note follows
				followed := runAir(t, e, group(fix))
				say := fmt.Sprintf("%d different values remain", len(c.remain))
				if len(followed.Rows) != len(c.remain) || !strings.Contains(w, say) {
					t.Errorf("grouping by %s: the advised %s makes %d groups; warning %q, want it to say %q", c.column, fix, len(followed.Rows), w, say)
				}
				for _, v := range c.remain {
					if !strings.Contains(w, fmt.Sprintf("%q", v)) {
						t.Errorf("grouping by %s: warning %q does not name %q", c.column, w, v)
					}
				}
				if strings.Contains(w, "synonym") {
					t.Errorf("warning %q calls the values synonyms", w)
				}
			}
		})
	}
}
