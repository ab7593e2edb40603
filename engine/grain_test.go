package engine

import (
	"context"
	"strings"
	"testing"
)

// Threat: "average resolution time per month" planned as the month label
// selected while the query groups by the timestamp itself: every ticket
// is a group, the result holds many rows labelled "2025-03", each a
// sliver of March, and a host reading the first one reports it as the
// month. Grouping by a column whose period the select shows must say so
// and give the grouping by the period; grouping by the period (or its
// alias) earns nothing.
func TestPeriodShownButColumnGroupedIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE tickets (id INTEGER PRIMARY KEY, opened_at TIMESTAMP, hours DECIMAL(6,2))",
		"INSERT INTO tickets VALUES (1, '2025-03-01 09:00:00', 2.00), (2, '2025-03-02 10:00:00', 4.00), (3, '2025-04-01 11:00:00', 6.00)",
	}
	col := `{"kind":"column","table":"t","column":"opened_at"}`
	label := `{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","value":"month"},` + col + `]}`
	trunc := `{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","value":"month"},` + col + `]}`
	plan := func(shown, groupBy string) []byte {
		return []byte(`{"select":[{"expr":` + shown + `,"alias":"m"},{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"t","column":"hours"}]},"alias":"h"}],` +
			`"from":[{"table":"tickets","alias":"t"}],"group_by":[` + groupBy + `]}`)
	}
	const said = "but the query groups by"
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			for _, c := range []struct {
				name  string
				plan  []byte
				named bool
				rows  int
			}{
				{"label shown, column grouped", plan(label, col), true, 3},
				{"truncation shown, column grouped", plan(trunc, col), true, 3},
				{"label shown and grouped", plan(label, label), false, 2},
				{"label and column grouped", plan(label, label+`,`+col), true, 3},
				{"label grouped by its alias", plan(label, `{"kind":"column","column":"m"}`), false, 2},
			} {
				res, err := e.RunPlan(ctx, "air", c.plan)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				w := warningWith(res.Warnings, said)
				if (w != "") != c.named || len(res.Rows) != c.rows {
					t.Errorf("%s: %d rows, warnings %q; want %d rows, the grouping named: %v", c.name, len(res.Rows), res.Warnings, c.rows, c.named)
				}
				if c.named && !strings.Contains(w, `group by {"kind":"func","name":"`) {
					t.Errorf("%s: %q gives no grouping by the period", c.name, w)
				}
			}
		})
	}
}
