package render_test

import (
	"testing"
)

// The threat: an analyst on PostgreSQL whose amounts are a money column
// asks for the absolute amount, a rounded amount, the average payment or
// the payments over 100, and gets "function abs(money) does not exist",
// "cannot cast type money to double precision" or "operator does not
// exist: money > integer" where the same plan answers on a numeric
// column. A money column is read as the numeric it holds (CAST(x AS
// NUMERIC)) on PostgreSQL, so every function, aggregate, arithmetic and
// comparison means what it means on a decimal, on every engine.
func TestMoneyComputesAsNumeric(t *testing.T) {
	pay := table("pay", []string{"id integer", "amount decimal", "g integer"})
	pay.Columns[1].Money = true
	cat := memCatalog{pay}
	rows := map[string][]string{"pay": {
		`1, 1234.56, 1`,
		`2, -2.5, 1`,
		`3, 0.01, 2`,
		`4, NULL, 2`,
	}}
	dbs := engines(t, cat, rows)
	for _, e := range dbs {
		if e.d.Name() == "postgres" {
			if _, err := e.db.Exec(`ALTER TABLE "pay" ALTER COLUMN "amount" TYPE money USING "amount"::money`); err != nil {
				t.Fatal(err)
			}
		}
	}
	amount, id, g := column("amount"), column("id"), column("g")
	sel := func(where string, es ...string) string {
		items := `{"expr":` + id + `,"alias":"id"}`
		for i, e := range es {
			items += `,{"expr":` + e + `,"alias":"e` + string(rune('0'+i)) + `"}`
		}
		if where != "" {
			where = `,"where":` + where
		}
		return `{"select":[` + items + `],"from":[{"table":"pay","alias":"p"}]` + where + `,"order_by":[{"expr":` + id + `}]}`
	}
	grouped := `{"select":[{"expr":` + g + `,"alias":"g"},{"expr":` + call("AVG", amount) + `,"alias":"avg"},{"expr":` + call("SUM", amount) + `,"alias":"sum"},{"expr":` +
		call("MAX", call("ABS", amount)) + `,"alias":"max"}],"from":[{"table":"pay","alias":"p"}],"group_by":[` + g + `],"order_by":[{"expr":` + g + `}]}`
	checkRangeCases(t, dbs, cat, []rangeCase{
		{"functions and arithmetic", sel("", amount, call("ABS", amount), call("ROUND", amount, num("1")), binary("*", amount, num("2")), binary("-", amount, num("0.5")), binary("div", amount, num("1"))),
			[][]string{
				{"1", "1234.56", "1234.56", "1234.6", "2469.12", "1234.06", "1234"},
				{"2", "-2.5", "2.5", "-2.5", "-5", "-3", "-2"},
				{"3", "0.01", "0.01", "0", "0.02", "-0.49", "0"},
				{"4", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
			}},
		{"compared with numbers", sel(binary(">", amount, num("100"))), [][]string{{"1"}}},
		{"compared with a float", sel(binary("<", amount, `{"kind":"cast","expr":`+num("0")+`,"type":"float"}`)), [][]string{{"2"}}},
		{"aggregates", grouped, [][]string{{"1", "616.03", "1232.06", "1234.56"}, {"2", "0.01", "0.01", "0.01"}}},
	})
}
