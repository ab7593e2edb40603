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
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount DECIMAL(10,2), currency TEXT, processor_ref INTEGER, kind TEXT, amount_eur DECIMAL(10,2), n_lines INTEGER, discount DECIMAL(10,2), eur DECIMAL(10,2), seats INTEGER, amount_cents INTEGER, fee INTEGER)",
		"INSERT INTO invoices VALUES (1, 100.00, 'USD', 7, 'sale', 92.00, 2, 5.00, 92.00, 10, 10000, 3), (2, 200.00, 'EUR', 8, 'fee', 200.00, 1, 0.00, 200.00, 5, 20000, 4), (3, 50.50, 'USD', 9, 'sale', 46.46, 3, 1.50, 46.46, 12, 5050, 1)",
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
				// a kept currency read through a function: the where keeps
				// one all the same
				{"one currency kept through LOWER", sum("invoices", `,"where":{"kind":"binary","op":"=","left":{"kind":"func","name":"LOWER","args":[`+cur+`]},"right":{"kind":"literal","value":"usd"}}`), false},
				{"the spellings of one kept through TRIM", sum("invoices", `,"where":{"kind":"in","expr":{"kind":"func","name":"TRIM","args":[`+cur+`]},"list":[{"kind":"literal","value":"USD"},{"kind":"literal","value":"usd"}]}`), false},
				{"two currencies kept", sum("invoices", `,"where":{"kind":"in","expr":`+cur+`,"list":[{"kind":"literal","value":"USD"},{"kind":"literal","value":"EUR"}]}`), true},
				{"a table of one currency", sum("payouts", ""), false},
				// one invoice, or one per group, holds one currency
				{"one invoice by its key", sum("invoices", `,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"i","column":"id"},"right":{"kind":"literal","value":2}}`), false},
				{"grouped by the key", sum("invoices", `,"group_by":[{"kind":"column","table":"i","column":"id"}]`), false},
				{"two invoices by their keys", sum("invoices", `,"where":{"kind":"in","expr":{"kind":"column","table":"i","column":"id"},"list":[{"kind":"literal","value":1},{"kind":"literal","value":2}]}`), true},
				// a reference number summed is no amount
				{"a reference summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"processor_ref"`, 1)), false},
				// a count of rows by a CASE reads no amount; a CASE choosing
				// the amount does; a converted amount and a count are in
				// no currency of the column
				{"a CASE counting rows", []byte(strings.Replace(string(sum("invoices", "")), `{"kind":"column","table":"i","column":"amount"}`, kindCase(`{"kind":"literal","value":1}`), 1)), false},
				{"a CASE choosing the amount", []byte(strings.Replace(string(sum("invoices", "")), `{"kind":"column","table":"i","column":"amount"}`, kindCase(`{"kind":"column","table":"i","column":"amount"}`), 1)), true},
				{"an amount converted", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"amount_eur"`, 1)), false},
				{"an amount converted, named by its currency alone", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"eur"`, 1)), false},
				{"a count summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"n_lines"`, 1)), false},
				// a name ending in "count" that is an amount
				{"a discount summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"discount"`, 1)), true},
				// whole numbers of things beside a currency are no amount;
				// whole-number amounts say so in their names
				{"seats summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"seats"`, 1)), false},
				{"an amount in cents summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"amount_cents"`, 1)), true},
				{"a whole-number fee summed", []byte(strings.Replace(string(sum("invoices", "")), `"column":"amount"`, `"column":"fee"`, 1)), true},
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

// kindCase is CASE WHEN i.kind = 'sale' THEN then ELSE 0 END.
func kindCase(then string) string {
	return `{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"i","column":"kind"},"right":{"kind":"literal","value":"sale"}},"then":` + then + `}],"else":{"kind":"literal","value":0}}`
}

// The threat: "the average weight of Rotterdam's shipments" over weights
// in kg and lbs (weight_unit 'kg', 'KG', 'lbs') gave 408 where they weigh
// 332 kg on average, with nothing said. An aggregate of a measure beside
// its unit column names the units and the fix; another measure of the
// table (pieces), one unit kept in any spelling, or a grouping by the
// unit, earns nothing.
func TestMeasuresInSeveralUnitsAreNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, weight REAL, weight_unit TEXT, pieces INTEGER, qty INTEGER)",
		"INSERT INTO shipments VALUES (1, 100, 'kg', 2, 3), (2, 220.5, 'lbs', 1, 1), (3, 50, 'KG', 4, 2)",
	}
	agg := func(fn, col, rest string) string {
		return `{"select":[{"expr":{"kind":"func","name":"` + fn + `","args":[{"kind":"column","table":"s","column":"` + col + `"}]},"alias":"v"}],"from":[{"table":"shipments","alias":"s"}]` + rest + `}`
	}
	unit := `{"kind":"column","table":"s","column":"weight_unit"}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, plan string
				named      bool
			}{
				{"weights in kg and lbs", agg("AVG", "weight", ""), true},
				{"pieces", agg("SUM", "pieces", ""), false},
				{"kg kept in its spellings", agg("AVG", "weight", `,"where":{"kind":"in","expr":`+unit+`,"list":[{"kind":"literal","value":"kg"},{"kind":"literal","value":"KG"}]}`), false},
				{"grouped by unit", agg("AVG", "weight", `,"group_by":[`+unit+`]`), false},
				// a count times the measure is in the measure's unit
				{"weights times quantities", strings.Replace(agg("SUM", "weight", ""), `{"kind":"column","table":"s","column":"weight"}`,
					`{"kind":"binary","op":"*","left":{"kind":"column","table":"s","column":"qty"},"right":{"kind":"column","table":"s","column":"weight"}}`, 1), true},
				// converted by the unit, as the warning advises: no mix left
				{"weights converted by their unit", strings.Replace(agg("SUM", "weight", ""), `{"kind":"column","table":"s","column":"weight"}`,
					`{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":`+unit+`,"right":{"kind":"literal","value":"lbs"}},"then":{"kind":"binary","op":"*","left":{"kind":"column","table":"s","column":"weight"},"right":{"kind":"literal","value":0.4536}}}],"else":{"kind":"column","table":"s","column":"weight"}}`, 1), false},
			} {
				res := runAir(t, e, c.plan)
				w := warningWith(res.Warnings, "adds values in 2 units")
				if (w != "" && strings.Contains(w, `"weight_unit" holds "KG", "lbs"`)) != c.named {
					t.Errorf("%s: warnings %q, want the units named: %v", c.name, res.Warnings, c.named)
				}
			}
		})
	}
}

// The threat: "shipments over 80 kg" compared weights in kg and lbs with
// one number, keeping a 220.5 lbs (100 kg) parcel's row for the number
// and dropping none by its unit, and only a sum was warned of. The
// comparison is named with its units; a filter keeping one unit, or a
// comparison of the weight converted by its unit, is not.
func TestMeasureComparedAcrossUnitsIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, weight REAL, weight_unit TEXT, pieces INTEGER)",
		"INSERT INTO shipments VALUES (1, 100, 'kg', 2), (2, 220.5, 'lbs', 1), (3, 50, 'KG', 4)",
	}
	ids := func(where string) string {
		return `{"select":[{"expr":{"kind":"column","table":"s","column":"id"},"alias":"id"}],"from":[{"table":"shipments","alias":"s"}],"where":` + where + `}`
	}
	weight, unit := `{"kind":"column","table":"s","column":"weight"}`, `{"kind":"column","table":"s","column":"weight_unit"}`
	over := func(x string) string {
		return `{"kind":"binary","op":">","left":` + x + `,"right":{"kind":"literal","value":80}}`
	}
	converted := `{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":` + unit + `,"right":{"kind":"literal","value":"lbs"}},"then":{"kind":"binary","op":"*","left":` + weight + `,"right":{"kind":"literal","value":0.4536}}}],"else":` + weight + `}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, plan string
				named      bool
			}{
				{"weights in kg and lbs over a number", ids(over(weight)), true},
				{"the number on the left", ids(`{"kind":"binary","op":"<","left":{"kind":"literal","value":80},"right":` + weight + `}`), true},
				{"pieces", ids(`{"kind":"binary","op":">","left":{"kind":"column","table":"s","column":"pieces"},"right":{"kind":"literal","value":1}}`), false},
				{"one unit kept", ids(`{"kind":"binary","op":"and","left":` + over(weight) + `,"right":{"kind":"binary","op":"=","left":` + unit + `,"right":{"kind":"literal","value":"lbs"}}}`), false},
				{"converted by its unit", ids(over(converted)), false},
			} {
				res := runAir(t, e, c.plan)
				w := warningWith(res.Warnings, "compares numbers in")
				if (w != "") != c.named || c.named && !strings.Contains(w, `in 2 units ("weight_unit" holds "KG", "lbs")`) {
					t.Errorf("%s: warnings %q, want the units named: %v", c.name, res.Warnings, c.named)
				}
			}
		})
	}
}

// The threat: invoices whose currency is their plan's (plans.currency
// holds EUR and USD) summed over the join gave 52295.09 with no warning,
// a figure in no currency, while the same sum over a table with its own
// currency column was named. The joined table's currency counts too, and
// grouping by it or keeping one of it earns nothing.
func TestAmountsWhoseCurrencyAJoinedTableHoldsAreNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT, currency TEXT)",
		"INSERT INTO plans VALUES (1, 'Basic', 'EUR'), (2, 'Pro', 'USD')",
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, plan_id INTEGER REFERENCES plans(id), amount DECIMAL(10,2), weight REAL)",
		"INSERT INTO invoices VALUES (1, 1, 10.00, 1.5), (2, 2, 99.00, 2.0), (3, 2, 99.00, 0.5)",
	}
	cur := `{"kind":"column","table":"p","column":"currency"}`
	sum := func(rest string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"amount"}]},"alias":"total"}],` +
			`"from":[{"table":"invoices","alias":"i"},{"table":"plans","alias":"p"}],"joins":[{"type":"inner","left":"i","right":"p","on":[{"left_column":"plan_id","right_column":"id"}]}]` + rest + `}`)
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name  string
				plan  []byte
				named bool
			}{
				{"summed over the join", sum(""), true},
				{"grouped by the plan's currency", sum(`,"group_by":[` + cur + `]`), false},
				{"one currency kept", sum(`,"where":{"kind":"binary","op":"=","left":` + cur + `,"right":{"kind":"literal","value":"EUR"}}`), false},
				// a weight is in no plan's currency
				{"a weight summed over the join", []byte(strings.Replace(string(sum("")), `"column":"amount"`, `"column":"weight"`, 1)), false},
			} {
				res, err := e.RunPlan(context.Background(), "air", c.plan)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				w := warningWith(res.Warnings, "adds amounts in 2 currencies")
				if got := w != "" && strings.Contains(w, `"EUR", "USD"`) && strings.Contains(w, "group by p.currency"); got != c.named {
					t.Errorf("%s: warnings %q, want the plan's currencies named: %v", c.name, res.Warnings, c.named)
				}
			}
		})
	}
}

// The threat: SUM and AVG of trips' distance_km beside trips.currency
// (CHF, EUR, USD) were warned of as amounts in 3 currencies, and a host
// following the warning grouped kilometres by currency. A measure whose
// name says its unit or what it measures is no amount; fares and amounts
// beside the same column still are, and a price per unit of a measure is
// money.
func TestMeasuresBesideACurrencyAreNoAmounts(t *testing.T) {
	db := []string{
		"CREATE TABLE trips (id INTEGER PRIMARY KEY, distance_km REAL, duration_min REAL, weight_kg REAL, rating REAL, total_minutes INTEGER, net_weight REAL, time_spent REAL, fare REAL, amount DECIMAL(10,2), price_per_km REAL, fare_min REAL, day_rate REAL, distance_fee REAL, currency TEXT)",
		"INSERT INTO trips VALUES (1, 3.2, 20.5, 1.5, 4.5, 20, 1.2, 9.5, 4.00, 4.00, 1.25, 3.0, 80.0, 0.5, 'CHF'), (2, 2.0, 12.0, 2.5, 3.5, 12, 2.1, 7.0, 2.50, 2.50, 1.10, 2.0, 90.0, 0.4, 'EUR'), (3, 4.4, 25.0, 0.5, 5.0, 25, 0.4, 3.5, 5.00, 5.00, 1.30, 4.0, 70.0, 0.6, 'USD')",
	}
	const said = "adds amounts in 3 currencies"
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				col   string
				named bool
			}{
				{"distance_km", false},
				{"duration_min", false},
				{"weight_kg", false},
				{"rating", false},
				{"total_minutes", false},
				{"net_weight", false},
				{"time_spent", false},
				{"fare", true},
				{"amount", true},
				{"price_per_km", true},
				{"fare_min", true},
				{"day_rate", true},
				{"distance_fee", true},
			} {
				for _, fn := range []string{"SUM", "AVG"} {
					plan := `{"select":[{"expr":{"kind":"func","name":"` + fn + `","args":[{"kind":"column","table":"t","column":"` + c.col + `"}]},"alias":"v"}],"from":[{"table":"trips","alias":"t"}]}`
					res := runAir(t, e, plan)
					check, err := e.CheckPlan(context.Background(), "air", []byte(plan), "")
					if err != nil {
						t.Fatalf("%s(%s): %v", fn, c.col, err)
					}
					for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
						if got := warningWith(ws, said) != ""; got != c.named {
							t.Errorf("%s(%s) (%s): warnings %q, want the currencies named: %v", fn, c.col, what, ws, c.named)
						}
					}
				}
			}
		})
	}
}
