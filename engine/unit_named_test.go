package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/planast/lift"
)

// unitShopDB: products weigh in kg or lb (weight_unit) and are priced in
// EUR or USD (currency); orders carry a quantity of a product, and a
// store whose currency (stores.currency) prices their fee.
var unitShopDB = []string{
	"CREATE TABLE stores (store_id INTEGER PRIMARY KEY, currency TEXT)",
	"INSERT INTO stores VALUES (1, 'EUR'), (2, 'USD')",
	"CREATE TABLE products (product_id INTEGER PRIMARY KEY, weight REAL, weight_unit TEXT, price DECIMAL(10,2), currency TEXT)",
	"INSERT INTO products VALUES (1, 2.5, 'kg', 10.00, 'EUR'), (2, 0.5, 'lb', 4.00, 'USD'), (3, 3.0, 'kg', 7.50, 'EUR')",
	"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(product_id), store_id INTEGER REFERENCES stores(store_id), qty INTEGER, fee DECIMAL(10,2))",
	"INSERT INTO orders VALUES (1, 1, 1, 3, 1.00), (2, 2, 2, 5, 2.00), (3, 3, 1, 1, 0.50), (4, 2, 2, 2, 1.50)",
}

// The threat: a plan summing o.qty * p.weight over weights in kg and lb
// was warned that "SUM(p.weight) adds values in 2 units": a reader looks
// for SUM(p.weight) in the plan, finds none, and takes the warning for
// another plan's, or fixes the wrong expression. The unit and currency
// warnings of a SUM, an AVG or a comparison name the expression the plan
// holds, on every engine: a bare column as before, a product, a CASE, and
// a comparison of a product with a number (which was not warned of at
// all); a comparison of an aggregate is the aggregate's own warning, and
// one converted by its unit is none.
func TestUnitAndCurrencyWarningsNameTheExpressionThePlanHolds(t *testing.T) {
	const from = " FROM orders o JOIN products p ON o.product_id = p.product_id"
	cases := []struct {
		name, sql string
		said      []string // the warnings of units or currencies, each by its opening
	}{
		{"a product summed", "SELECT SUM(o.qty * p.weight) AS w" + from,
			[]string{"SUM(o.qty * p.weight) adds values in 2 units"}},
		{"a product averaged", "SELECT AVG(p.weight * o.qty) AS w" + from,
			[]string{"AVG(p.weight * o.qty) adds values in 2 units"}},
		{"an expression in parentheses", "SELECT SUM((p.weight - 1) * o.qty) AS w" + from,
			[]string{"SUM((p.weight - 1) * o.qty) adds values in 2 units"}},
		{"a case", "SELECT SUM(CASE WHEN o.qty > 2 THEN p.weight ELSE 0 END) AS w" + from,
			[]string{"SUM(CASE WHEN o.qty > 2 THEN p.weight ELSE 0 END) adds values in 2 units"}},
		{"the column alone", "SELECT SUM(p.weight) AS w FROM products p",
			[]string{"SUM(p.weight) adds values in 2 units"}},
		{"a product compared", "SELECT o.order_id" + from + " WHERE o.qty * p.weight > 3",
			[]string{"o.qty * p.weight > 3 compares numbers in 2 units"}},
		{"the column compared", "SELECT p.product_id FROM products p WHERE p.weight >= 1",
			[]string{"p.weight >= 1 compares numbers in 2 units"}},
		{"an aggregate compared", "SELECT o.store_id" + from + " GROUP BY o.store_id HAVING SUM(o.qty * p.weight) > 3",
			[]string{"SUM(o.qty * p.weight) adds values in 2 units"}},
		{"a product converted by its unit", "SELECT o.order_id" + from + " WHERE o.qty * CASE WHEN p.weight_unit = 'lb' THEN p.weight * 0.4536 ELSE p.weight END > 3",
			nil},
		{"prices times quantities", "SELECT SUM(o.qty * p.price) AS revenue" + from,
			[]string{"SUM(o.qty * p.price) adds amounts in 2 currencies"}},
		{"fees in the joined store's currency", "SELECT SUM(o.fee * 2) AS fees FROM orders o JOIN stores s ON o.store_id = s.store_id",
			[]string{"SUM(o.fee * 2) adds amounts in 2 currencies"}},
	}
	// each store's products weigh in one unit: a run's probe finds no
	// group mixing two, so the check alone (no probe) says it
	checked := map[string]bool{"an aggregate compared": true}
	for _, en := range everyEngine(unitShopDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			snap := airSnapshot(t, e)
			for _, c := range cases {
				plan, err := lift.Lift(c.sql, en.name, snap)
				if err != nil {
					t.Fatalf("%s: %v", c.sql, err)
				}
				var ws []string
				if checked[c.name] {
					check, err := e.CheckPlan(context.Background(), "air", plan.Canonical(), "")
					if err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					ws = mixWarnings(check.Warnings)
				} else {
					ws = mixWarnings(runAir(t, e, string(plan.Canonical())).Warnings)
				}
				if len(ws) != len(c.said) {
					t.Errorf("%s: warnings of units or currencies %q, want %d opening %q", c.name, ws, len(c.said), c.said)
					continue
				}
				for i, want := range c.said {
					if !strings.HasPrefix(ws[i], want) {
						t.Errorf("%s: warning %q, want it to open %q", c.name, ws[i], want)
					}
				}
			}
		})
	}
}

// The threat of TestUnitAndCurrencyWarningsNameTheExpressionThePlanHolds
// where the currency is on a table the plan does not join (a payment's
// order) or on the tables a summed view reads: the warning named
// SUM(p.amount) of a plan summing p.amount * 1.1.
func TestHeldCurrencyWarningsNameTheExpressionThePlanHolds(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, heldCurrencyDB...), RowLimit: 1000})
	snap := airSnapshot(t, e)
	for _, c := range []struct{ sql, said string }{
		{"SELECT SUM(p.amount * 1.1) AS total FROM payments p", `SUM(p.amount * 1.1) adds amounts in 3 currencies ("orders.currency" holds`},
		{"SELECT AVG(cl.lifetime_value / 2) AS v FROM customer_lifetime cl", `AVG(cl.lifetime_value / 2) adds amounts in 3 currencies ("orders.currency" holds`},
	} {
		plan, err := lift.Lift(c.sql, lift.DialectSQLite, snap)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		check, err := e.CheckPlan(context.Background(), "air", plan.Canonical(), "")
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		for what, ws := range map[string][]string{"run": runAir(t, e, string(plan.Canonical())).Warnings, "check": check.Warnings} {
			if got := mixWarnings(ws); len(got) != 1 || !strings.HasPrefix(got[0], c.said) {
				t.Errorf("%s (%s): warnings of currencies %q, want one opening %q", c.sql, what, got, c.said)
			}
		}
	}
}

// mixWarnings are those of ws that say values of several units or
// currencies are added or compared.
func mixWarnings(ws []string) []string {
	var out []string
	for _, w := range ws {
		if strings.Contains(w, " adds values in ") || strings.Contains(w, " adds amounts in ") || strings.Contains(w, " compares numbers in ") {
			out = append(out, w)
		}
	}
	return out
}
