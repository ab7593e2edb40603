package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// fxDB holds invoices in two currencies and monthly exchange rates no
// key declares: fx_rates has one rate per currency and month (and two
// rates of no month, which no join meets), fx_quotes two EUR rates for
// January (two sources quoting it), fx_keyed the rates of fx_rates under
// a primary key of currency and month. Every column of the rate tables
// repeats, as does the invoices' currency.
var fxDB = []string{
	"CREATE TABLE invoices (id INTEGER PRIMARY KEY, currency TEXT, invoice_date DATE, amount INTEGER)",
	"CREATE TABLE fx_rates (currency TEXT, rate_month DATE, rate INTEGER)",
	"CREATE TABLE fx_quotes (currency TEXT, rate_month DATE, rate INTEGER, source TEXT)",
	"CREATE TABLE fx_keyed (currency TEXT, rate_month DATE, rate INTEGER, PRIMARY KEY (currency, rate_month))",
	"INSERT INTO invoices VALUES (1, 'EUR', '2024-01-15', 100), (2, 'EUR', '2024-02-03', 200), (3, 'GBP', '2024-01-20', 10)",
	"INSERT INTO fx_rates VALUES ('EUR', '2024-01-01', 2), ('EUR', '2024-02-01', 3), ('GBP', '2024-01-01', 5), ('GBP', '2024-02-01', 4), ('EUR', NULL, 9), ('EUR', NULL, 8)",
	"INSERT INTO fx_quotes VALUES ('EUR', '2024-01-01', 2, 'ecb'), ('EUR', '2024-01-01', 2, 'fed'), ('EUR', '2024-02-01', 3, 'ecb'), ('GBP', '2024-01-01', 5, 'ecb'), ('GBP', '2024-02-01', 4, 'ecb')",
	"INSERT INTO fx_keyed VALUES ('EUR', '2024-01-01', 2), ('EUR', '2024-02-01', 3), ('GBP', '2024-01-01', 5), ('GBP', '2024-02-01', 4)",
}

// The threat: a host converts invoices with the rate of their month,
// joining the rates on currency and pinning the rate's month in the
// join's condition. Each invoice meets one rate, yet the fan-out warning
// looked only at the join's on-pairs (several rates share a currency)
// and said the sum was inflated: a careful host spent a call proving it
// wrong, a less careful one rewrote a right query. A run must give the
// right figure and no such warning, on SQLite, DuckDB and PostgreSQL
// alike, whether the month is pinned to the invoice's or to a literal; a
// key the condition leaves repeated (two quotes of one month) must still
// be warned of, with the count a run found; without a run (check_plan)
// the warning stays and says the condition was not probed, unless a
// primary key covers the whole key.
func TestJoinConditionThatMakesTheKeyUniqueIsNoFanOut(t *testing.T) {
	monthOf := `{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","value":"month"},{"kind":"column","table":"i","column":"invoice_date"}]}`
	jan := `{"kind":"literal","type":"date","value":"2024-01-01"}`
	feb := `{"kind":"literal","type":"date","value":"2024-02-01"}`
	convert := func(rates, month string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*","left":{"kind":"column","table":"i","column":"amount"},"right":{"kind":"column","table":"fx","column":"rate"}}]},"alias":"total"}],` +
			`"from":[{"table":"invoices","alias":"i"},{"table":"` + rates + `","alias":"fx"}],` +
			`"joins":[{"type":"inner","left":"i","right":"fx","on":[{"left_column":"currency","right_column":"currency"}],` +
			`"condition":{"kind":"binary","op":"=","left":{"kind":"column","table":"fx","column":"rate_month"},"right":` + month + `}}]}`
	}
	const fanout = "once per joined"
	for _, eng := range everyEngine(fxDB) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, c := range []struct {
				name, plan, total string
				want              string // in the fan-out warning of a run; "" for none
			}{
				{"month of the invoice", convert("fx_rates", monthOf), "[[850]]", ""},
				{"a literal month", convert("fx_rates", jan), "[[650]]", ""},
				// one quote a currency in February, two of EUR in January
				{"a literal month of one quote", convert("fx_quotes", feb), "[[940]]", ""},
				{"two quotes of one month", convert("fx_quotes", monthOf), "[[1050]]", "a run counted up to 2 fx_quotes rows sharing one value of the whole key, the join condition's rate_month included"},
			} {
				res := runAir(t, e, c.plan)
				if got := fmt.Sprint(res.Rows); got != c.total {
					t.Errorf("%s: %s, want %s", c.name, got, c.total)
				}
				w := warningWith(res.Warnings, fanout)
				if c.want == "" && w != "" || !strings.Contains(w, c.want) || strings.Contains(w, "not probed") {
					t.Errorf("%s: fan-out warning %q, want one with %q", c.name, w, c.want)
				}
			}
			for _, c := range []struct {
				name, plan string
				warned     bool
			}{
				{"check of the month of the invoice", convert("fx_rates", monthOf), true},
				{"check under a primary key", convert("fx_keyed", monthOf), false},
			} {
				pc, err := e.CheckPlan(context.Background(), "air", []byte(c.plan), "")
				if err != nil {
					t.Fatal(err)
				}
				w := warningWith(pc.Warnings, fanout)
				if got := strings.Contains(w, "the join condition's equality on rate_month is part of the key and was not probed"); got != c.warned || !c.warned && w != "" {
					t.Errorf("%s: warnings %q, want the condition named as not probed: %v", c.name, pc.Warnings, c.warned)
				}
			}
		})
	}
}
