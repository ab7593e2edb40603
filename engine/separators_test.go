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

// The threat: the warning on COUNT(DISTINCT member_ref) advised LOWER and
// TRIM; pasted, the count fell from 122 to 62 with no further word, where
// 36 members booked: 'M-001' beside 'M001' and 'm001 ' still counted
// apart. The same for GROUP BY LOWER(TRIM(room_type)) keeping 'hot desk'
// and 'hot-desk' apart. A cleaned expression is checked for the spellings
// it still leaves apart, in a column written several ways even across a
// code's separators, and the fix given, pasted, counts and groups each
// value once; a tidy column of codes ('A-12' beside 'A12') says nothing.
func TestCleanedExpressionsThatStillSplitAValueAreNamed(t *testing.T) {
	stmts := []string{
		"CREATE TABLE bookings (id INTEGER PRIMARY KEY, member_ref TEXT, room_type TEXT, code TEXT)",
		"INSERT INTO bookings VALUES (1, 'M001', 'hot desk', 'A-12'), (2, 'm001', 'Hot Desk', 'A12'), (3, 'M-001', 'hot-desk', 'B-1'), (4, 'M001 ', 'meeting room', 'B1'), " +
			"(5, 'M002', 'Meeting Room', 'C-3'), (6, 'M-002', 'hot desk', 'C-3'), (7, 'M003', 'meeting room', 'A12')",
	}
	lowerTrim := func(col string) string {
		return `{"kind":"func","name":"LOWER","args":[{"kind":"func","name":"TRIM","args":[{"kind":"column","table":"b","column":"` + col + `"}]}]}`
	}
	distinct := func(x string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","distinct":true,"args":[` + x + `]},"alias":"n"}],"from":[{"table":"bookings","alias":"b"}]}`
	}
	group := func(x string) string {
		return `{"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"bookings","alias":"b"}],"group_by":[` + x + `],"order_by":[{"expr":{"kind":"column","column":"k"}}]}`
	}
	fixOf := func(w, after string) string {
		_, fix, ok := strings.Cut(w, after)
		if !ok {
			t.Fatalf("warning %q gives no fix after %q", w, after)
		}
		return fix
	}
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			run := func(plan string) *Result { return runAir(t, e, plan) }
			w := warningWith(run(distinct(lowerTrim("member_ref"))).Warnings, "still counts each spelling")
			if !strings.Contains(w, `"m-001"`) || !strings.Contains(w, `"m001"`) {
				t.Fatalf("COUNT(DISTINCT LOWER(TRIM(member_ref))): warning %q, want m-001 and m001 named", w)
			}
			if got := run(distinct(fixOf(w, "count distinct "))); fmt.Sprint(got.Rows) != "[[3]]" {
				t.Errorf("the fix counts %v members, want 3", got.Rows)
			}
			// the warning on the column itself names 'M-001' with the rest,
			// and its fix counts the 3 members at once
			w = warningWith(run(distinct(`{"kind":"column","table":"b","column":"member_ref"}`)).Warnings, "counts each spelling")
			if !strings.Contains(w, `"M-001"`) {
				t.Fatalf("COUNT(DISTINCT member_ref): warning %q, want M-001 among the spellings", w)
			}
			if got := run(distinct(fixOf(w, "count distinct "))); fmt.Sprint(got.Rows) != "[[3]]" {
				t.Errorf("the column warning's fix counts %v members, want 3", got.Rows)
			}
			w = warningWith(run(group(lowerTrim("room_type"))).Warnings, "still makes a group of each spelling")
			if !strings.Contains(w, `"hot-desk"`) {
				t.Fatalf("GROUP BY LOWER(TRIM(room_type)): warning %q, want hot-desk named", w)
			}
			if got := run(group(fixOf(w, "select and group by "))); len(got.Rows) != 2 {
				t.Errorf("grouped by the fix: %v, want 2 room types", got.Rows)
			}
			for _, x := range []string{lowerTrim("code"), `{"kind":"column","table":"b","column":"code"}`} {
				if w := warningWith(run(distinct(x)).Warnings, "spelling"); w != "" {
					t.Errorf("a tidy column of codes: %q, want nothing said", w)
				}
			}
		})
	}
}
