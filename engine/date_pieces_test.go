package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// membersDB is the table of TestMonthByTextPiecesOfMixedDatesIsNamed:
// joined_on writes its dates mostly as ISO and three of them otherwise
// ('24/02/2025', '05/03/2025', '25/03/24'), as an import from a
// spreadsheet does; iso_on is the same dates written as ISO, the answer a
// direct query gives, NULL where joined_on's year has two digits (no
// reading knows its century, and the warning says that one stays unread).
var membersDB = []string{
	"CREATE TABLE members (id INTEGER PRIMARY KEY, joined_on TEXT, iso_on TEXT)",
	"INSERT INTO members VALUES (1, '2024-12-03', '2024-12-03'), (2, '2024-12-15', '2024-12-15'), (3, '2025-01-07', '2025-01-07')," +
		" (4, '24/02/2025', '2025-02-24'), (5, '2025-02-11', '2025-02-11'), (6, '25/03/24', NULL), (7, '2025-03-02', '2025-03-02')," +
		" (8, '2025-03-30', '2025-03-30'), (9, '05/03/2025', '2025-03-05')",
}

// The threat: "members per month" as the SQLite idiom SUBSTR(joined_on, 1,
// 7) over a column that writes most dates as ISO and some as
// '24/02/2025' came back with months "24/02/2" and "05/03/2" of their own
// and February and March short, and nothing said so, where MIN, MAX,
// ORDER BY and comparisons of the column were warned of. A piece of the
// text (SUBSTR, LEFT) and a GROUP BY of the raw text are named, with the
// count of values in other forms, one of them and what the plan made of
// it; the same plans over a column of one form are not; and the month
// label the warning gives, pasted as the plan's month, counts each month
// as a direct query over the dates written as ISO does.
func TestMonthByTextPiecesOfMixedDatesIsNamed(t *testing.T) {
	col := func(c string) string { return `{"kind":"column","table":"m","column":"` + c + `"}` }
	num := func(n int) string { return fmt.Sprintf(`{"kind":"literal","type":"integer","value":%d}`, n) }
	substr := func(c string) string {
		return `{"kind":"func","name":"SUBSTR","args":[` + col(c) + `,` + num(1) + `,` + num(7) + `]}`
	}
	left := func(c string) string { return `{"kind":"func","name":"LEFT","args":[` + col(c) + `,` + num(4) + `]}` }
	// per is the count of members per x, grouped by its alias
	per := func(x string) string {
		return `{"from":[{"table":"members","alias":"m"}],"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"group_by":[{"kind":"column","column":"k"}],"order_by":[{"expr":{"kind":"column","column":"k"}}]}`
	}
	// unordered is per without the order_by, whose own warning would give
	// the reading first
	unordered := func(x string) string {
		return `{"from":[{"table":"members","alias":"m"}],"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"group_by":[{"kind":"column","column":"k"}]}`
	}
	const said, pieceSaid = "dates in other forms than ISO", "takes characters of the text"
	const forms = `"joined_on" holds 3 values that are dates in other forms than ISO (such as "05/03/2025")`
	cases := []struct {
		name, plan, marker string   // marker: the warning's own words
		want               []string // what it says; nil for no warning on the column's forms
	}{
		{"month by SUBSTR", per(substr("joined_on")), pieceSaid, []string{`SUBSTR(m.joined_on, 1, 7) takes characters of the text, and ` + forms + `, of which it takes "05/03/2"`,
			"each such row falls into a group of its own, and the group of its month is short of it", `take the month of the date instead: {"kind": "func", "name": "PERIOD_LABEL"`}},
		{"month by SUBSTR, grouped by the expression", `{"from":[{"table":"members","alias":"m"}],"select":[{"expr":` + substr("joined_on") + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"group_by":[` + substr("joined_on") + `]}`,
			pieceSaid, []string{"each such row falls into a group of its own"}},
		{"year by LEFT", per(left("joined_on")), pieceSaid, []string{`LEFT(m.joined_on, 4) takes characters of the text, and ` + forms + `, of which it takes "05/0"`,
			"the group of its year is short of it", `take the year of the date instead`}},
		{"year by SUBSTR in a filter", `{"from":[{"table":"members","alias":"m"}],"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"where":{"kind":"binary","op":"=","left":{"kind":"func","name":"SUBSTR","args":[` + col("joined_on") + `,` + num(1) + `,` + num(4) + `]},"right":{"kind":"literal","value":"2025"}}}`,
			pieceSaid, []string{"those values compare and show by their characters, never by their date"}},
		{"the raw text grouped", unordered(col("joined_on")), "group_by on m.joined_on groups its text", []string{`group_by on m.joined_on groups its text, and ` + forms, "apart from the rows of the same date written as ISO", `group by {"kind": "cast"`}},
		{"one form, by SUBSTR", per(substr("iso_on")), said, nil},
		{"one form, by LEFT", per(left("iso_on")), said, nil},
		{"one form, the raw text grouped", unordered(col("iso_on")), said, nil},
	}
	for _, en := range everyEngine(membersDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			for _, c := range cases {
				res := runAir(t, e, c.plan)
				check, err := e.CheckPlan(ctx, "air", []byte(c.plan), "")
				if err != nil {
					t.Fatalf("%s: check: %v", c.name, err)
				}
				for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
					w := warningWith(ws, c.marker)
					if c.want == nil && w != "" {
						t.Errorf("%s (%s): warning %q on a column of one form", c.name, what, w)
					}
					for _, s := range c.want {
						if !strings.Contains(w, s) {
							t.Errorf("%s (%s): warning %q\nwant it to say %q", c.name, what, w, s)
						}
					}
				}
			}

			res := runAir(t, e, per(substr("joined_on")))
			if got := fmt.Sprint(res.Rows); !strings.Contains(got, "[24/02/2 1]") {
				t.Fatalf("SUBSTR's months %s: want the junk month the threat is about", got)
			}
			w := warningWith(res.Warnings, pieceSaid)
			_, fix, _ := strings.Cut(w, "take the month of the date instead: ")
			fix, reading, _ := strings.Cut(fix, " (the NN/NN/YYYY ones")
			if !strings.Contains(reading, `1 values in other forms (such as "25/03/24") are none of those shapes and still read as NULL`) {
				t.Errorf("warning %q: want the form the fix leaves unread named", w)
			}
			fixed := runAir(t, e, per(fix))
			direct := runAir(t, e, per(substr("iso_on")))
			if got, want := fmt.Sprint(fixed.Rows), fmt.Sprint(direct.Rows); got != want || !strings.Contains(got, "[2025-03 3]") {
				t.Errorf("months by the warning's label: %s, want those of the dates written as ISO: %s", got, want)
			}
			if w := warningWith(fixed.Warnings, pieceSaid); w != "" {
				t.Errorf("the warning's own label is warned of: %q", w)
			}
		})
	}
}
