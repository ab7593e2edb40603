package engine

import (
	"context"
	"fmt"
	"regexp"
	"testing"
)

// The threat: an average of price per unit over rows some of which hold 0
// units. The division is NULL there on every engine, so AVG leaves those
// rows out and answers over the others, and nothing says so. A run and a
// check must name the divisor that holds 0, and the where the warning
// gives must make the same answer explicit. A divisor whose range only
// spans 0, and a query that tests the divisor itself, earn nothing.
func TestDivisionByAColumnHoldingZeroIsNamed(t *testing.T) {
	for _, en := range everyEngine([]string{
		"CREATE TABLE lines (id INTEGER PRIMARY KEY, price INTEGER, units INTEGER, delta INTEGER)",
		"INSERT INTO lines VALUES (1, 100, 4, -2), (2, 60, 0, 3), (3, 90, 3, 5), (4, 50, 0, -1)",
	}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			avg := func(div, where string) []byte {
				return []byte(`{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"binary","op":"/","left":{"kind":"column","table":"l","column":"price"},"right":{"kind":"column","table":"l","column":"` + div + `"}}]},"alias":"per_unit"}],"from":[{"table":"lines","alias":"l"}]` + where + `}`)
			}
			const said = "a division by 0 is NULL"
			for _, c := range []struct {
				name  string
				plan  []byte
				named bool
			}{
				{"units hold 0", avg("units", ""), true},
				{"a range spanning 0", avg("delta", ""), false},
				{"the divisor tested", avg("units", `,"where":{"kind":"binary","op":">","left":{"kind":"column","table":"l","column":"units"},"right":{"kind":"literal","value":0}}`), false},
			} {
				res, err := e.RunPlan(context.Background(), "air", c.plan)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				check, err := e.CheckPlan(context.Background(), "air", c.plan, "")
				if err != nil {
					t.Fatalf("%s: check: %v", c.name, err)
				}
				for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
					if got := warningWith(ws, said) != ""; got != c.named {
						t.Errorf("%s (%s): warnings %q, want the zero divisor named: %v", c.name, what, ws, c.named)
					}
				}
			}
			// the warning's where gives the answer the run gave, said
			res, err := e.RunPlan(context.Background(), "air", avg("units", ""))
			if err != nil {
				t.Fatal(err)
			}
			where := regexp.MustCompile(`\{"kind": "binary", "op": "!=".*?"value": 0\}\}`).FindString(warningWith(res.Warnings, said))
			fixed, err := e.RunPlan(context.Background(), "air", avg("units", `,"where":`+where))
			if err != nil {
				t.Fatalf("the warning's where %q: %v", where, err)
			}
			if fmt.Sprint(fixed.Rows) != fmt.Sprint(res.Rows) {
				t.Errorf("the warning's where gives %v, the run %v", fixed.Rows, res.Rows)
			}
		})
	}
}

// The threat: a plan dividing by the literal 0 (a typo for a real divisor)
// answered NULL on every row with no word. The run names the division;
// a literal that is not 0 earns nothing.
func TestDivisionByTheLiteralZeroIsNamed(t *testing.T) {
	e := specEngine(t, everyEngine([]string{
		"CREATE TABLE lines (id INTEGER PRIMARY KEY, price INTEGER)",
		"INSERT INTO lines VALUES (1, 100), (2, 60)",
	})[0].spec(t))
	for _, c := range []struct {
		divisor string
		named   bool
	}{
		{`{"kind":"literal","value":0}`, true},
		{`{"kind":"literal","type":"decimal","value":"0.00"}`, true},
		{`{"kind":"literal","value":2}`, false},
	} {
		plan := []byte(`{"select":[{"expr":{"kind":"binary","op":"/","left":{"kind":"column","table":"l","column":"price"},"right":` + c.divisor + `},"alias":"q"}],"from":[{"table":"lines","alias":"l"}]}`)
		res, err := e.RunPlan(context.Background(), "air", plan)
		if err != nil {
			t.Fatalf("%s: %v", c.divisor, err)
		}
		if got := warningWith(res.Warnings, "divided by the literal 0") != ""; got != c.named {
			t.Errorf("%s: rows %v warnings %q, want the division named: %v", c.divisor, res.Rows, res.Warnings, c.named)
		}
	}
}
