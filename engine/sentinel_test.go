package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Threat: "the average satisfaction score" over a column whose comment
// says 0 means the survey was sent but not answered: AVG reads the zeros
// as scores and says 2.5 where the answers average 3.33, with nothing
// said. An aggregate of such a column names the comment and gives the
// NULLIF that leaves them out; a plan that reads the column through
// NULLIF, or filters on it, earns nothing. SQLite keeps no comments, so
// the two engines that do are tried.
func TestDocumentedNoValueIsNamedInAnAggregate(t *testing.T) {
	db := []string{
		"CREATE TABLE tickets (id INTEGER PRIMARY KEY, csat INTEGER, hours DECIMAL(6,2))",
		"COMMENT ON COLUMN tickets.csat IS 'Customer satisfaction 1-5; 0 = survey sent but not answered'",
		"COMMENT ON COLUMN tickets.hours IS 'Hours to resolve; 0 is a ticket closed at once'",
		"INSERT INTO tickets VALUES (1, 5, 2.0), (2, 0, 0), (3, 3, 4.5), (4, 0, 1.0), (5, 2, 3.0)",
	}
	avg := func(arg, where string) string {
		doc := `{"select":[{"expr":{"kind":"func","name":"AVG","args":[` + arg + `]},"alias":"a"}],"from":[{"table":"tickets","alias":"t"}]`
		if where != "" {
			doc += `,"where":` + where
		}
		return doc + `}`
	}
	csat := `{"kind":"column","table":"t","column":"csat"}`
	const said = `the column's comment says 0 means "survey sent but not answered"`
	for _, en := range everyEngine(db)[1:] {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, plan string
				named      bool
			}{
				{"average of the scores", avg(csat, ""), true},
				{"read through NULLIF", avg(`{"kind":"func","name":"NULLIF","args":[`+csat+`,{"kind":"literal","value":0}]}`, ""), false},
				{"zeros filtered out", avg(csat, `{"kind":"binary","op":">","left":`+csat+`,"right":{"kind":"literal","value":0}}`), false},
				// a comment that gives 0 a meaning of its own is no gap
				{"a zero that is a value", avg(`{"kind":"column","table":"t","column":"hours"}`, ""), false},
			} {
				res := runAir(t, e, c.plan)
				w := warningWith(res.Warnings, "the column's comment says")
				if (w != "") != c.named || c.named && warningWith(res.Warnings, said) == "" {
					t.Errorf("%s: warnings %q, want the no-value named: %v", c.name, res.Warnings, c.named)
				}
				if c.named {
					fixed := runAir(t, e, avg(`{"kind":"func","name":"NULLIF","args":[`+csat+`,{"kind":"literal","value":0}]}`, ""))
					if got := fixed.Rows[0][0]; !near(got, 10.0/3) {
						t.Errorf("%s: the advised NULLIF averages %v, want 3.33", c.name, got)
					}
				}
			}
		})
	}
}

// near reports whether v, a number of a result (a float or an exact
// decimal as text), is within 1e-6 of want.
func near(v any, want float64) bool {
	var f float64
	if _, err := fmt.Sscan(fmt.Sprint(v), &f); err != nil {
		return false
	}
	return math.Abs(f-want) < 1e-6
}

// scoresDB: survey answers rated 1 to 5, where 0 was stored for no
// response (most of the north's, none of the south's), a genuine 0 to 5
// scale whose 0 is as common as its neighbours, a 1 to 10 score with 99
// for unknown, and a 0 to 4 grade with -1 for a missing one. No comment
// says any of it.
var scoresDB = []string{
	"CREATE TABLE answers (id INTEGER PRIMARY KEY, branch TEXT, score INTEGER, effort INTEGER, nps INTEGER, grade INTEGER)",
	"INSERT INTO answers VALUES " +
		"(1, 'north', 0, 0, 7, 3), (2, 'north', 0, 0, 8, -1), (3, 'north', 0, 1, 99, -1), (4, 'north', 0, 1, 9, 2), (5, 'north', 0, 2, 99, 4), (6, 'north', 4, 2, 6, 3), " +
		"(7, 'north', 5, 3, 10, 0), (8, 'north', 3, 3, 5, 1), (9, 'north', 1, 4, 4, 2), (10, 'south', 5, 4, 3, 3), (11, 'south', 4, 5, 2, 4), (12, 'south', 3, 5, 1, 1), " +
		"(13, 'south', 2, 0, 99, 2), (14, 'south', 5, 1, 8, 3), (15, 'south', 4, 2, 7, 0), (16, 'south', 3, 3, 9, 1)",
}

// The threat: "the average satisfaction score" over ratings of 1 to 5
// that store 0 for no response, said nowhere: AVG reads the zeros as
// ratings (2.44 where the ratings average 3.55), MIN says 0, and the host
// reports the figure. An aggregate the value moves, over rows holding it
// often, is told the value, its count among the rows read and the filter
// to paste (which gives the ratings' average); rows filtered to the
// south, which hold no 0, a SUM (zeros add nothing), a MAX of values
// below the scale, a plan that filters the column, and a 0 to 5 scale
// whose 0 is as common as its 1 are told nothing. On every engine.
func TestValueApartFromAScaleIsNamed(t *testing.T) {
	agg := func(fn, col, where string) string {
		doc := `{"select":[{"expr":{"kind":"func","name":"` + fn + `","args":[{"kind":"column","table":"a","column":"` + col + `"}]},"alias":"v"}],"from":[{"table":"answers","alias":"a"}]`
		if where != "" {
			doc += `,"where":` + where
		}
		return doc + `}`
	}
	and := func(l, r string) string {
		if l == "" {
			return r
		}
		return `{"kind":"binary","op":"and","left":` + l + `,"right":` + r + `}`
	}
	north := `{"kind":"binary","op":"=","left":{"kind":"column","table":"a","column":"branch"},"right":{"kind":"literal","value":"north"}}`
	south := strings.Replace(north, "north", "south", 1)
	positive := `{"kind":"binary","op":">","left":{"kind":"column","table":"a","column":"score"},"right":{"kind":"literal","value":0}}`
	for _, en := range everyEngine(scoresDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, fn, col, where string
				said                 string // "" for no warning
				fixed                float64
			}{
				{"average score", "AVG", "score", "", "AVG(a.score) reads 0 as a number, but 5 of the 16 values it reads are 0, against 1 row of 1, apart from the 1 to 5 the column's other values run", 39.0 / 11},
				{"least score", "MIN", "score", "", "MIN(a.score) reads 0 as a number, but 5 of the 16 values", 1},
				{"the north's average", "AVG", "score", north, "AVG(a.score) reads 0 as a number, but 5 of the 9 values it reads are 0", 3.25},
				{"the south's average", "AVG", "score", south, "", 0},
				{"sum of scores", "SUM", "score", "", "", 0},
				{"highest score", "MAX", "score", "", "", 0},
				{"scores filtered", "AVG", "score", positive, "", 0},
				{"a genuine 0 to 5", "AVG", "effort", "", "", 0},
				{"unknown as 99", "AVG", "nps", "", "AVG(a.nps) reads 99 as a number, but 3 of the 16 values it reads are 99, apart from the 1 to 10 the column's other values run", 79.0 / 13},
				{"unknown as 99, summed", "SUM", "nps", "", "SUM(a.nps) reads 99 as a number", 79},
				{"missing as -1", "AVG", "grade", "", "AVG(a.grade) reads -1 as a number, but 2 of the 16 values it reads are -1, apart from the 0 to 4 the column's other values run", 29.0 / 14},
			} {
				res := runAir(t, e, agg(c.fn, c.col, c.where))
				w := warningWith(res.Warnings, "as a number, but")
				if c.said == "" && w != "" || c.said != "" && !strings.Contains(w, c.said) {
					t.Errorf("%s: rows %v warnings %q\nwant one with %q", c.name, res.Rows, res.Warnings, c.said)
					continue
				}
				if c.said == "" {
					continue
				}
				// the filter the warning gives, added to the where, gives
				// the figure over the scale's values alone
				_, filter, _ := strings.Cut(w, "to leave them out add to the where ")
				filter, _, _ = strings.Cut(filter, ", or, to keep the rows")
				fixed := runAir(t, e, agg(c.fn, c.col, and(c.where, filter)))
				if !near(fixed.Rows[0][0], c.fixed) || warningWith(fixed.Warnings, "as a number, but") != "" {
					t.Errorf("%s: the warning's filter %s gives %v, warnings %q, want %v and none", c.name, filter, fixed.Rows[0][0], fixed.Warnings, c.fixed)
				}
			}
		})
	}
}
