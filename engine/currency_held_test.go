package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// heldCurrencyDB: payments carry no currency; the order each belongs to
// does (orders.currency: EUR, USD, GBP), by a declared foreign key.
// Refunds belong to payments (two hops to orders); fees belong to
// payments and to terminals of shops that hold currencies too (two
// tables two hops away). Payouts belong to shops of one currency.
var heldCurrencyDB = []string{
	"CREATE TABLE shops (id INTEGER PRIMARY KEY, currency TEXT)",
	"INSERT INTO shops VALUES (1, 'EUR'), (2, 'USD')",
	"CREATE TABLE banks (id INTEGER PRIMARY KEY, ccy TEXT)",
	"INSERT INTO banks VALUES (1, 'EUR'), (2, 'EUR')",
	"CREATE TABLE terminals (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shops(id))",
	"INSERT INTO terminals VALUES (1, 1), (2, 2)",
	"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, currency TEXT)",
	"INSERT INTO orders VALUES (1, 10, 'EUR'), (2, 10, 'USD'), (3, 11, 'GBP'), (4, 11, 'EUR')",
	"CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(order_id), quantity INTEGER, unit_price DECIMAL(10,2))",
	"INSERT INTO order_items VALUES (1, 1, 2, 10.00), (2, 2, 1, 99.00), (3, 3, 3, 5.00), (4, 4, 1, 7.50)",
	"CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(order_id), amount DECIMAL(10,2), amount_eur DECIMAL(10,2), weight REAL)",
	"INSERT INTO payments VALUES (1, 1, 100.00, 100.00, 1), (2, 2, 50.30, 46.00, 1), (3, 3, 5.00, 5.80, 1), (4, 4, 10.00, 10.00, 1), (5, NULL, 1.00, 1.00, 1)",
	"CREATE TABLE refunds (id INTEGER PRIMARY KEY, payment_id INTEGER REFERENCES payments(payment_id), amount DECIMAL(10,2))",
	"INSERT INTO refunds VALUES (1, 1, 20.00), (2, 2, 5.00), (3, 3, 1.00)",
	"CREATE TABLE fees (id INTEGER PRIMARY KEY, payment_id INTEGER REFERENCES payments(payment_id), terminal_id INTEGER REFERENCES terminals(id), amount DECIMAL(10,2))",
	"INSERT INTO fees VALUES (1, 1, 1, 0.30), (2, 2, 2, 0.25)",
	"CREATE TABLE payouts (id INTEGER PRIMARY KEY, bank_id INTEGER REFERENCES banks(id), amount DECIMAL(10,2))",
	"INSERT INTO payouts VALUES (1, 1, 10.00), (2, 2, 20.00)",
	"CREATE VIEW customer_lifetime AS SELECT o.customer_id, SUM(oi.quantity * oi.unit_price) AS lifetime_value, COUNT(*) AS lines_bought FROM orders o JOIN order_items oi ON oi.order_id = o.order_id GROUP BY o.customer_id",
	"CREATE VIEW customer_eur AS SELECT o.customer_id, SUM(oi.quantity * oi.unit_price) AS lifetime_value FROM orders o JOIN order_items oi ON oi.order_id = o.order_id WHERE o.currency = 'EUR' GROUP BY o.customer_id",
}

// sumOver is SUM(alias.col) over table (aliased) with rest (more keys of
// the query, each led by a comma).
func sumOver(table, alias, col, rest string) string {
	return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"` + alias + `","column":"` + col + `"}]},"alias":"total"}],"from":[{"table":"` + table + `","alias":"` + alias + `"}]` + rest + `}`
}

// The threat: "how much have we been paid?" as SUM(amount) over payments
// gave 155410.3 with no warning, euros, dollars and pounds added, because
// the currency is on the order each payment belongs to, which the plan
// did not join; the same sum joined to orders was named. A sum whose
// currency a table one foreign key away (or one table two away) holds in
// several values is named, with that table and the fix; a converted
// amount, one order's payments, a plan that keeps one currency through a
// subquery, a table of one currency and a currency two tables two hops
// away might hold earn nothing.
func TestAmountsWhoseCurrencyAnUnjoinedTableHoldsAreNamed(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, heldCurrencyDB...), RowLimit: 1000})
	const held = `adds amounts in 3 currencies ("orders.currency" holds "EUR", "GBP", "USD")`
	for _, c := range []struct {
		name, plan string
		want       string // a phrase of the currency warning, "" for none
	}{
		{"payments summed alone", sumOver("payments", "p", "amount", ""), held + `, a figure in none of them: each row of payments belongs to one of orders (payments.order_id → orders)`},
		{"payments averaged alone", strings.Replace(sumOver("payments", "p", "amount", ""), `"SUM"`, `"AVG"`, 1), "AVG(p.amount) " + held},
		{"an amount named without its table", strings.Replace(sumOver("payments", "payments", "amount", ""), `"table":"payments","column"`, `"column"`, 1), "SUM(payments.amount) " + held},
		{"refunds, two hops from orders", sumOver("refunds", "r", "amount", ""), held + `, a figure in none of them: each row of refunds belongs to one of orders (refunds.payment_id → payments.order_id → orders)`},
		{"an amount converted", sumOver("payments", "p", "amount_eur", ""), ""},
		{"a weight", sumOver("payments", "p", "weight", ""), ""},
		{"one order's payments", sumOver("payments", "p", "amount", `,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":"order_id"},"right":{"kind":"literal","value":2}}`), ""},
		{"grouped by order", sumOver("payments", "p", "amount", `,"group_by":[{"kind":"column","table":"p","column":"order_id"}]`), ""},
		{"one payment", sumOver("payments", "p", "amount", `,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":"payment_id"},"right":{"kind":"literal","value":2}}`), ""},
		{"one currency kept through a subquery", sumOver("payments", "p", "amount", `,"where":{"kind":"in","expr":{"kind":"column","table":"p","column":"order_id"},"subquery":`+
			`{"select":[{"expr":{"kind":"column","table":"o","column":"order_id"}}],"from":[{"table":"orders","alias":"o"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"currency"},"right":{"kind":"literal","value":"EUR"}}}}`), ""},
		{"a table of one currency", sumOver("payouts", "p", "amount", ""), ""},
		{"two tables two hops away", sumOver("fees", "f", "amount", ""), ""},
		// a view summing order lines of every currency, of one, and its
		// count of lines
		{"a view's sums of every currency", sumOver("customer_lifetime", "cl", "lifetime_value", ""),
			`SUM(cl.lifetime_value) ` + held + `, a figure in none of them: view customer_lifetime computes lifetime_value`},
		{"a view's sums of one currency", sumOver("customer_eur", "cl", "lifetime_value", ""), ""},
		{"a view's count", sumOver("customer_lifetime", "cl", "lines_bought", ""), ""},
		// joined, the rule of the joined table's currency says it alone
		{"payments joined to orders", `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"p","column":"amount"}]},"alias":"total"}],` +
			`"from":[{"table":"payments","alias":"p"},{"table":"orders","alias":"o"}],"joins":[{"type":"inner","left":"p","right":"o","on":[{"left_column":"order_id","right_column":"order_id"}]}]}`,
			`SUM(p.amount) adds amounts in 3 currencies ("currency" holds "EUR", "GBP", "USD"), a figure in none of them; group by o.currency`},
	} {
		res := runAir(t, e, c.plan)
		check, err := e.CheckPlan(context.Background(), "air", []byte(c.plan), "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			got := warningWith(ws, "adds amounts in")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("%s (%s): warnings %q\nwant one with %q", c.name, what, ws, c.want)
			}
			if n := strings.Count(strings.Join(ws, "\n"), "adds amounts in"); n > 1 {
				t.Errorf("%s (%s): %d currency warnings, want one: %q", c.name, what, n, ws)
			}
		}
	}
}

// The fix the warning gives is plan JSON a host can paste: the sources
// and joins that reach the currency, and the column to group by. Pasted
// into the plan, it validates, runs without the warning, and splits the
// total by currency without losing a payment.
func TestHeldCurrencyFixValidates(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, heldCurrencyDB...), RowLimit: 1000})
	for _, c := range []struct {
		name, table, alias string
		groups             int
	}{
		{"one hop", "payments", "p", 4}, // EUR, GBP, USD and the payment of no order
		{"two hops", "refunds", "p", 3}, // p, which payments would take, is taken
	} {
		w := warningWith(runAir(t, e, sumOver(c.table, c.alias, "amount", "")).Warnings, "adds amounts in 3 currencies")
		if w == "" {
			t.Fatalf("%s: no currency warning", c.name)
		}
		var plan map[string]any
		if err := json.Unmarshal([]byte(sumOver(c.table, c.alias, "amount", "")), &plan); err != nil {
			t.Fatal(err)
		}
		plan["from"] = append(plan["from"].([]any), jsonValuesAfter(t, w, `; add `)...)
		plan["joins"] = jsonValuesAfter(t, w, `to "from" and `)
		cur := jsonValuesAfter(t, w, `then group by `)
		plan["group_by"] = cur
		plan["select"] = append(plan["select"].([]any), map[string]any{"expr": cur[0], "alias": "currency"})
		fixed, _ := json.Marshal(plan)
		res := runAir(t, e, string(fixed))
		if got := warningWith(res.Warnings, "adds amounts in"); got != "" {
			t.Errorf("%s: the fixed plan %s still warns %q", c.name, fixed, got)
		}
		if len(res.Rows) != c.groups {
			t.Errorf("%s: the fixed plan %s gave %v, want %d groups", c.name, fixed, res.Rows, c.groups)
		}
	}
}

// jsonValuesAfter decodes the JSON values, separated by ", ", that follow
// the first after in w.
func jsonValuesAfter(t *testing.T, w, after string) []any {
	t.Helper()
	i := strings.Index(w, after)
	if i < 0 {
		t.Fatalf("no %q in %q", after, w)
	}
	rest := w[i+len(after):]
	var out []any
	for {
		d := json.NewDecoder(strings.NewReader(rest))
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("no JSON after %q in %q: %v", after, w, err)
		}
		out = append(out, v)
		rest = rest[d.InputOffset():]
		if !strings.HasPrefix(rest, ", {") {
			return out
		}
		rest = rest[2:]
	}
}

// The threat: a sum of order lines kept to two currencies of three
// (currency IN ('EUR', 'USD')) was said to add three, naming the one the
// where left out: a host told the figure mixes pounds looks for pounds
// that are not there. The warning counts and lists what the where keeps
// (an IN, a NOT IN or != taking some out), and says nothing when it
// keeps one; a condition under "or" keeps every currency. These are the
// profile's counts, which a check gives; a run counts the rows it sums
// (TestCurrencyWarningCountsTheRowsSummed).
func TestCurrenciesCountedAreThoseTheWhereKeeps(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, heldCurrencyDB...), RowLimit: 1000})
	cur := `{"kind":"column","table":"o","column":"currency"}`
	lits := func(vs ...string) string {
		var out []string
		for _, v := range vs {
			out = append(out, `{"kind":"literal","value":"`+v+`"}`)
		}
		return strings.Join(out, ",")
	}
	in := func(neg bool, vs ...string) string {
		return fmt.Sprintf(`{"kind":"in","expr":%s,"list":[%s],"negated":%v}`, cur, lits(vs...), neg)
	}
	cmp := func(op, v string) string {
		return `{"kind":"binary","op":"` + op + `","left":` + cur + `,"right":` + lits(v) + `}`
	}
	and := func(a, b string) string { return `{"kind":"binary","op":"and","left":` + a + `,"right":` + b + `}` }
	or := func(a, b string) string { return `{"kind":"binary","op":"or","left":` + a + `,"right":` + b + `}` }
	lines := func(where string) string {
		p := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*","left":{"kind":"column","table":"oi","column":"quantity"},"right":{"kind":"column","table":"oi","column":"unit_price"}}]},"alias":"total"}],` +
			`"from":[{"table":"order_items","alias":"oi"},{"table":"orders","alias":"o"}],"joins":[{"type":"inner","left":"oi","right":"o","on":[{"left_column":"order_id","right_column":"order_id"}]}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + "}"
	}
	const two = `adds amounts in 2 currencies ("currency" holds "EUR", "USD" in the rows the where keeps)`
	for _, c := range []struct {
		name, where, want string
	}{
		{"every currency", "", `adds amounts in 3 currencies ("currency" holds "EUR", "GBP", "USD")`},
		{"two kept by IN", in(false, "EUR", "USD"), two},
		{"two kept by IN in other spellings", in(false, "eur", "USD "), two},
		{"one kept by IN of two, one not stored", in(false, "EUR", "JPY"), ""},
		{"one taken out by NOT IN", in(true, "GBP"), two},
		{"one taken out by !=", cmp("!=", "GBP"), two},
		{"one taken out by <>", cmp("<>", "GBP"), two},
		{"two taken out by NOT IN", in(true, "GBP", "USD"), ""},
		{"IN then != leaving one", and(in(false, "EUR", "USD"), cmp("!=", "USD")), ""},
		{"one kept by =", cmp("=", "EUR"), ""},
		{"IN under or", or(in(false, "EUR"), `{"kind":"binary","op":">","left":{"kind":"column","table":"oi","column":"quantity"},"right":{"kind":"literal","value":5}}`), `adds amounts in 3 currencies ("currency" holds "EUR", "GBP", "USD")`},
	} {
		check, err := e.CheckPlan(context.Background(), "air", []byte(lines(c.where)), "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ws := check.Warnings
		got := warningWith(ws, "adds amounts in")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: warnings %q\nwant one with %q", c.name, ws, c.want)
		}
	}
}
