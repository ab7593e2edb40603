package engine

import (
	"fmt"
	"math"
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
