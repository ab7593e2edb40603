package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: weights stored as text with their units ('0.225 t',
// '12.5 kg', '12,5kg', '800.1 lbs') were no "numbers as text" to the
// profile, so SUM(CAST(weight AS REAL)) dropped nine in ten rows, MAX and
// a comparison with '10000' ordered text, and nothing was said; and the
// samples a planner reads, the most frequent values then the least, all
// showed tonnes. The profile counts what a cast to a number loses for
// quantities with units, each warning names it, and the samples show each
// form the column writes in. On every engine.
func TestQuantitiesWithUnitsAreNumbersAsText(t *testing.T) {
	var vals []string
	for i := 1; i <= 20; i++ {
		// every value once: the most frequent are the least, and the
		// least 20 are all in tonnes
		vals = append(vals, fmt.Sprintf("(%d, '1.%03d t')", i, i), fmt.Sprintf("(%d, '1%d.5 kg')", 100+i, i),
			fmt.Sprintf("(%d, '1%d,5kg')", 200+i, i), fmt.Sprintf("(%d, '1%d.1 lbs')", 300+i, i))
	}
	stmts := []string{
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, weight TEXT)",
		"INSERT INTO shipments VALUES " + strings.Join(vals, ", ") + ", (999, '17278.2')",
	}
	weight := `{"kind": "column", "table": "s", "column": "weight"}`
	from := `"from": [{"table": "shipments", "alias": "s"}]`
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			tb, _ := airSnapshot(t, e).Lookup("", "shipments")
			c, ok := tb.Column("weight")
			if !ok || c.Profile == nil {
				t.Fatalf("shipments.weight: %v, profile %v", ok, c)
			}
			units := 0
			for _, u := range []string{" t", " kg", "kg", " lbs"} {
				for _, v := range c.Profile.SampleValues {
					if s, _ := v.(string); strings.HasSuffix(s, u) && (u != "kg" || !strings.HasSuffix(s, " kg")) {
						units++
						break
					}
				}
			}
			if units < 4 {
				t.Errorf("samples %v show %d of the 4 forms the column writes in", c.Profile.SampleValues, units)
			}
			for _, p := range []struct{ plan, want string }{
				{`{"select": [{"expr": {"kind": "func", "name": "SUM", "args": [{"kind": "cast", "type": "float", "expr": ` + weight + `}]}, "alias": "w"}], ` + from + `}`, `"weight" holds 80 values that are not numbers`},
				{`{"select": [{"expr": {"kind": "func", "name": "MAX", "args": [` + weight + `]}, "alias": "w"}], ` + from + `}`, "orders its values as text"},
				{`{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], ` + from + `, "where": {"kind": "binary", "op": ">", "left": ` + weight + `, "right": {"kind": "literal", "value": "10000"}}}`, "is compared as text"},
			} {
				res, err := e.RunPlan(context.Background(), "air", []byte(p.plan))
				if err != nil {
					t.Fatalf("%s: %v", p.plan, err)
				}
				if warningWith(res.Warnings, p.want) == "" {
					t.Errorf("%s: warnings %q, want one saying %q", p.plan, res.Warnings, p.want)
				}
			}
		})
	}
}
