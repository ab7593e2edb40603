package render_test

import "testing"

func TestZZDuck2(t *testing.T) {
	r := xOpen(t, "duckdb", nil, nil)
	for _, q := range []string{
		`SELECT d + to_months(1), d + to_days(30) FROM (SELECT DATE '2021-01-31' AS d)`,
		`SELECT d + INTERVAL 1 MONTH, d + INTERVAL 30 DAY FROM (SELECT DATE '2021-01-31' AS d)`,
		`SELECT d + INTERVAL 30 DAY, d + INTERVAL 1 MONTH FROM (SELECT DATE '2021-01-31' AS d)`,
		`SELECT d + to_days(30) FROM (SELECT DATE '2021-01-31' AS d)`,
		`SELECT INTERVAL 1 MONTH = INTERVAL 30 DAY`,
		`SELECT d + to_days(CAST(30 AS INTEGER)), d + to_months(CAST(1 AS INTEGER)) FROM (SELECT DATE '2021-01-31' AS d)`,
		`SELECT d + to_days(CAST(n AS INTEGER)), d + to_months(CAST(m AS INTEGER)) FROM (SELECT DATE '2021-01-31' AS d, 30 AS n, 1 AS m)`,
	} {
		rows, err := r.Query(q)
		t.Logf("%s => %v %v", q, rows, err)
	}
}
