package engine

import (
	"context"
	"strings"
	"testing"
)

// The threat: "how much did we invoice?" over invoices in EUR and USD. A
// SUM of the amounts is a figure in no currency that reads like revenue,
// and nothing in the result says two currencies went into it. A run and
// a check must name the currencies and the fix; grouping by the currency
// or keeping one in the where (in any of its spellings), or a table of one
// currency, earns nothing.
func TestAmountsInSeveralCurrenciesAreNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount DECIMAL(10,2), currency TEXT, processor_ref INTEGER)",
		"INSERT INTO invoices VALUES (1, 100.00, 'USD', 7), (2, 200.00, 'EUR', 8), (3, 50.50, 'USD', 9)",
		"CREATE TABLE payouts (id INTEGER PRIMARY KEY, amount DECIMAL(10,2), currency TEXT)",
		"INSERT INTO payouts VALUES (1, 10.00, 'USD'), (2, 20.00, 'USD')",
	}
	sum := func(table, rest string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"amount"}]},"alias":"total"}],"from":[{"table":"` + table + `","alias":"i"}]` + rest + `}`)
	}
	cur := `{"kind":"column","table":"i","column":"currency"}`
	const said = "adds amounts in 2 currencies"
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			for _, c := range []struct {
				name  string
				plan  []byte
				named bool
			}{
				{"both currencies summed", sum("invoices", ""), true},
				{"one currency kept", sum("invoices", `,"where":{"kind":"binary","op":"=","left":`+cur+`,"right":{"kind":"literal","value":"USD"}}`), false},
				{"grouped by currency", sum("invoices", `,"group_by":[`+cur+`]`), false},
				// the spellings of one currency, as the spelling warning
				// advises, keep one; two currencies in the list do not
				{"the spellings of one kept", sum("invoices", `,"where":{"kind":"in","expr":`+cur+`,"list":[{"kind":"literal","value":"USD"},{"kind":"literal","value":"usd "}]}`), false},
				{"two currencies kept", sum("invoices", `,"where":{"kind":"in","expr":`+cur+`,"list":[{"kind":"literal","value":"USD"},{"kind":"literal","value":"EUR"}]}`), true},
				{"a table of one currency", sum("payouts", ""), false},
				// a reference number summed is no amount
				{"a reference summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"processor_ref"`, 1)), false},
			} {
				res, err := e.RunPlan(ctx, "air", c.plan)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				check, err := e.CheckPlan(ctx, "air", c.plan, "")
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
					w := warningWith(ws, said)
					if got := w != "" && warningWith(ws, `"EUR", "USD"`) != ""; got != c.named {
						t.Errorf("%s (%s): warnings %q, want the currencies named: %v", c.name, what, ws, c.named)
					}
				}
			}
		})
	}
}
