package engine

import (
	"slices"
	"testing"
)

// The threat: the checks that read a column's profile (spellings of one
// value, dates written two ways compared as text, values a cast reads as
// NULL) stopped at the first CTE or derived table, and hosts write those
// all the time (the duplicate-row warning itself advises a subquery): the
// same count of 'delivered' said 2 with a warning read directly and 2 with
// none through a CTE. A column passed through as it is keeps every warning
// the direct plan gets; the plans below alias the outer source as the
// inner table so that the warnings' texts are the same.
func TestWarningsFollowColumnsThroughDerivedTables(t *testing.T) {
	stmts := []string{
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, status TEXT, shipped TEXT, weight TEXT)",
		"INSERT INTO shipments VALUES (1, 'delivered', '2025-01-05', '12.5'), (2, 'Delivered', '07/01/2025', '3'), (3, 'delivered', '2025-02-11', '$4.00')," +
			" (4, 'in transit', '15/02/2025', '7'), (5, 'DELIVERED', '2025-03-01', '1,200.50')",
	}
	count := func(from, where string) string {
		return `{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [` + from + `], "where": ` + where + `}`
	}
	sum := func(from string) string {
		return `{"select": [{"expr": {"kind": "func", "name": "SUM", "args": [{"kind": "cast", "type": "decimal", "expr": {"kind": "column", "table": "s", "column": "weight"}}]}, "alias": "w"}], "from": [` + from + `]}`
	}
	inner := `{"select": [{"expr": {"kind": "column", "table": "s", "column": "status"}, "alias": "status"}, {"expr": {"kind": "column", "table": "s", "column": "shipped"}}, {"expr": {"kind": "column", "table": "s", "column": "weight"}, "alias": "weight"}], "from": [{"table": "shipments", "alias": "s"}]}`
	direct := `{"table": "shipments", "alias": "s"}`
	subquery := `{"alias": "s", "subquery": ` + inner + `}`
	withCTE := func(plan string) string { return `{"with": [{"name": "c", "query": ` + inner + `}], ` + plan[1:] }
	viaCTE := `{"table": "c", "alias": "s"}`
	status := `{"kind": "binary", "op": "=", "left": {"kind": "column", "table": "s", "column": "status"}, "right": {"kind": "literal", "value": "delivered"}}`
	dates := `{"kind": "between", "expr": {"kind": "column", "table": "s", "column": "shipped"}, "low": {"kind": "literal", "value": "2025-01-01"}, "high": {"kind": "literal", "value": "2025-03-31"}}`
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			warn := func(plan string) []string { return runAir(t, e, plan).Warnings }
			for _, c := range []struct{ name, direct, sub, cte string }{
				{"spellings", count(direct, status), count(subquery, status), withCTE(count(viaCTE, status))},
				{"text dates", count(direct, dates), count(subquery, dates), withCTE(count(viaCTE, dates))},
				{"cast of amounts", sum(direct), sum(subquery), withCTE(sum(viaCTE))},
			} {
				want := warn(c.direct)
				if len(want) == 0 {
					t.Fatalf("%s: the direct plan has no warning to compare with", c.name)
				}
				for form, plan := range map[string]string{"a derived table": c.sub, "a CTE": c.cte} {
					got := warn(plan)
					for _, w := range want {
						if !slices.Contains(got, w) {
							t.Errorf("%s through %s: warnings %q\nlack %q", c.name, form, got, w)
						}
					}
				}
			}
		})
	}
}
