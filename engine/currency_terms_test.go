package engine

import (
	"strings"
	"testing"
)

// The threat: "the average paid per order, tips included" as
// AVG(amount + COALESCE(tip, 0)) over stores in euros and dollars added
// the two currencies (32.91 where the answers are 30.83 USD and 36.66
// EUR), and nothing was said, while AVG(amount) alone was warned: the
// sum of two amounts of one row was no amount the warning knew. Amounts
// of one row added are in that row's currency; an amount times another
// source's rate is a conversion and is told nothing.
func TestAmountsOfOneRowAddedAreInItsCurrency(t *testing.T) {
	stmts := []string{
		"CREATE TABLE stores (store_id INTEGER PRIMARY KEY, currency TEXT)",
		"INSERT INTO stores VALUES (1, 'EUR'), (2, 'USD')",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, store_id INTEGER REFERENCES stores(store_id), amount_cents INTEGER, tip_cents INTEGER)",
		"INSERT INTO orders VALUES (1, 1, 1000, 100), (2, 2, 2000, NULL), (3, 1, 3000, 0), (4, 2, 500, 50)",
		"CREATE TABLE rates (store_id INTEGER PRIMARY KEY REFERENCES stores(store_id), to_usd REAL)",
		"INSERT INTO rates VALUES (1, 1.1), (2, 1.0)",
	}
	col := func(a, c string) string { return `{"kind":"column","table":"` + a + `","column":"` + c + `"}` }
	avg := func(x, from string) string {
		return `{"select":[{"expr":{"kind":"func","name":"AVG","args":[` + x + `]},"alias":"a"}],` + from + `}`
	}
	orders := `"from":[{"table":"orders","alias":"o"}]`
	paid := `{"kind":"binary","op":"+","left":` + col("o", "amount_cents") + `,"right":{"kind":"func","name":"COALESCE","args":[` + col("o", "tip_cents") + `,{"kind":"literal","value":0}]}}`
	converted := `{"kind":"binary","op":"*","left":` + col("o", "amount_cents") + `,"right":` + col("r", "to_usd") + `}`
	withRates := `"from":[{"table":"orders","alias":"o"},{"table":"rates","alias":"r"}],"joins":[{"left":"o","right":"r","on":[{"left_column":"store_id","right_column":"store_id"}]}]`
	for _, eng := range everyEngine(stmts) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			if w := warningWith(runAir(t, e, avg(paid, orders)).Warnings, "adds amounts in 2 currencies"); !strings.Contains(w, "AVG(o.amount_cents + COALESCE(o.tip_cents, 0))") {
				t.Errorf("amount plus tip: warning %q, want the sum named as amounts in two currencies", w)
			}
			if w := warningWith(runAir(t, e, avg(converted, withRates)).Warnings, "currencies"); w != "" {
				t.Errorf("amount times another table's rate: warned %q", w)
			}
		})
	}
}
