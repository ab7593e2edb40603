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
// a primary key of currency and month, fx_unique them under a UNIQUE
// constraint of currency and month (the key of a table whose primary key
// is a surrogate id). Every column of the rate tables
// repeats, as does the invoices' currency.
var fxDB = []string{
	"CREATE TABLE invoices (id INTEGER PRIMARY KEY, currency TEXT, invoice_date DATE, amount INTEGER)",
	"CREATE TABLE fx_rates (currency TEXT, rate_month DATE, rate INTEGER)",
	"CREATE TABLE fx_quotes (currency TEXT, rate_month DATE, rate INTEGER, source TEXT)",
	"CREATE TABLE fx_keyed (currency TEXT, rate_month DATE, rate INTEGER, PRIMARY KEY (currency, rate_month))",
	"CREATE TABLE fx_unique (id INTEGER PRIMARY KEY, currency TEXT, rate_month DATE, rate INTEGER, UNIQUE (currency, rate_month))",
	"INSERT INTO invoices VALUES (1, 'EUR', '2024-01-15', 100), (2, 'EUR', '2024-02-03', 200), (3, 'GBP', '2024-01-20', 10)",
	"INSERT INTO fx_rates VALUES ('EUR', '2024-01-01', 2), ('EUR', '2024-02-01', 3), ('GBP', '2024-01-01', 5), ('GBP', '2024-02-01', 4), ('EUR', NULL, 9), ('EUR', NULL, 8)",
	"INSERT INTO fx_quotes VALUES ('EUR', '2024-01-01', 2, 'ecb'), ('EUR', '2024-01-01', 2, 'fed'), ('EUR', '2024-02-01', 3, 'ecb'), ('GBP', '2024-01-01', 5, 'ecb'), ('GBP', '2024-02-01', 4, 'ecb')",
	"INSERT INTO fx_keyed VALUES ('EUR', '2024-01-01', 2), ('EUR', '2024-02-01', 3), ('GBP', '2024-01-01', 5), ('GBP', '2024-02-01', 4)",
	"INSERT INTO fx_unique VALUES (1, 'EUR', '2024-01-01', 2), (2, 'EUR', '2024-02-01', 3), (3, 'GBP', '2024-01-01', 5), (4, 'GBP', '2024-02-01', 4)",
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
// primary key or a unique constraint covers the whole key.
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
				{"check under a unique constraint", convert("fx_unique", monthOf), false},
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

// The threat: a unique index that holds over some rows only (a partial
// index of the current rates) is no key of the columns a join names: two
// rates of one currency and month are stored, and a check that took the
// index for a key would tell a host its doubled sum is sound. SQLite and
// PostgreSQL have partial indexes; the check must still say the key
// repeats unprobed, as for a table with no index.
func TestUniqueIndexesThatAreNoKeyLeaveTheFanOutWarning(t *testing.T) {
	stmts := []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, currency TEXT, invoice_date DATE, amount INTEGER)",
		"CREATE TABLE fx_partial (currency TEXT, rate_month DATE, rate INTEGER, current INTEGER)",
		"CREATE UNIQUE INDEX fx_partial_current ON fx_partial (currency, rate_month) WHERE current = 1",
		"INSERT INTO invoices VALUES (1, 'EUR', '2024-01-15', 100)",
		"INSERT INTO fx_partial VALUES ('EUR', '2024-01-01', 2, 1), ('EUR', '2024-01-01', 3, 0)",
	}
	monthOf := `{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","value":"month"},{"kind":"column","table":"i","column":"invoice_date"}]}`
	for _, eng := range everyEngine(stmts) {
		if eng.name == "duckdb" {
			continue // DuckDB has no partial index, and reads no unique index as a key
		}
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, rates := range []string{"fx_partial"} {
				plan := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"amount"}]},"alias":"total"}],` +
					`"from":[{"table":"invoices","alias":"i"},{"table":"` + rates + `","alias":"fx"}],` +
					`"joins":[{"type":"inner","left":"i","right":"fx","on":[{"left_column":"currency","right_column":"currency"}],` +
					`"condition":{"kind":"binary","op":"=","left":{"kind":"column","table":"fx","column":"rate_month"},"right":` + monthOf + `}}]}`
				pc, err := e.CheckPlan(context.Background(), "air", []byte(plan), "")
				if err != nil {
					t.Fatal(err)
				}
				if w := warningWith(pc.Warnings, "once per joined"); !strings.Contains(w, "was not probed") {
					t.Errorf("%s: warnings %q, want the key named as not probed", rates, pc.Warnings)
				}
			}
		})
	}
}
