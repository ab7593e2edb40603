package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// filteredCopiesDB: a cost log whose copies (an import of 2024-01-02 run
// twice) are all 'pending'; customers whose one repeated id (a record
// exported twice, its credit since raised) is in the north; payments
// whose bank references repeat only in January (two reversals), and whose
// other months hold none.
func filteredCopiesDB() []string {
	var customers, payments []string
	for i := 1; i <= 30; i++ {
		region := "south"
		if i <= 10 {
			region = "north"
		}
		customers = append(customers, fmt.Sprintf("(%d, '%s', %d)", i, region, 10*i))
		month := "02"
		if i <= 10 {
			month = "01"
		}
		payments = append(payments, fmt.Sprintf("('BR-%03d', '2024-%s-%02d', %d)", i, month, 1+i%28, i))
	}
	customers = append(customers, "(3, 'north', 35)")
	payments = append(payments, "('BR-001', '2024-01-02', -1)", "('BR-002', '2024-01-03', -2)")
	return []string{
		"CREATE TABLE costs (station TEXT, day TEXT, status TEXT, amount DECIMAL(10,2))",
		"INSERT INTO costs VALUES ('north', '2024-01-02', 'pending', 10.50), ('north', '2024-01-02', 'pending', 10.50), ('south', '2024-01-02', 'pending', 7.25)," +
			" ('south', '2024-01-02', 'pending', 7.25), ('east', '2024-01-03', 'settled', 3.00), ('west', '2024-01-04', 'settled', 4.00), ('east', '2024-01-05', 'settled', 5.00)",
		"CREATE TABLE customers (customer_id INTEGER, region TEXT, credit INTEGER)",
		"INSERT INTO customers VALUES " + strings.Join(customers, ", "),
		"CREATE TABLE payments (bank_ref TEXT, paid_on TEXT, amount INTEGER)",
		"INSERT INTO payments VALUES " + strings.Join(payments, ", "),
	}
}

// The threat: a cost log's copies sit together (one day's import, run
// twice, all 'pending'); "what did we settle?" sums the settled rows,
// which hold no copy, and was told that copies inflate its sum: a host
// that checks and finds the warning false learns to skip it where it is
// right, or reports a figure "corrected" for copies it never read. The
// copies' warning, the repeated own id's and a repeated reference's are
// said only when the rows the plan's where keeps of the table repeat,
// with the count found there; a plan with no filter, or whose filter
// keeps the copies, is told as before; a check, which runs nothing, says
// the where was not probed. On every engine.
func TestCopiesWarningCountsTheRowsFiltered(t *testing.T) {
	col := func(a, c string) string { return `{"kind":"column","table":"` + a + `","column":"` + c + `"}` }
	eq := func(a, c, v string) string {
		return `,"where":{"kind":"binary","op":"=","left":` + col(a, c) + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	// two terms of the where on the table: the probe applies both
	eqAnd := func(a, c, v string) string {
		return `,"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":` + col(a, c) + `,"right":{"kind":"literal","value":"` + v + `"}},` +
			`"right":{"kind":"binary","op":">","left":` + col(a, "amount") + `,"right":{"kind":"literal","value":0}}}`
	}
	count := func(table, alias, rest string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"` + alias + `"}]` + rest + `}`
	}
	const (
		copies  = `table "costs" holds 2 rows that repeat another row exactly (every column equal)`
		ownID   = `table "customers" has 31 rows but its column "customer_id" holds 30 distinct values, so 1 of its rows repeat a record's id (an export that wrote a record twice?)`
		bankRef = `payments.bank_ref is nearly unique, but 2 rows repeat another row's value`
	)
	for _, en := range everyEngine(filteredCopiesDB()) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, plan, said string
				rows             string // "" to leave unchecked
				found            string // the count found among the rows kept, "" for a plan not probed
				warned           bool
			}{
				{"settled costs", sumOver("costs", "c", "amount", eq("c", "status", "settled")), copies, "[[12]]", "", false},
				{"pending costs", sumOver("costs", "c", "amount", eqAnd("c", "status", "pending")), copies, "[[35.5]]", ", 2 among the rows this plan's where keeps", true},
				{"every cost", sumOver("costs", "c", "amount", ""), copies, "[[47.5]]", "", true},
				{"southern customers", count("customers", "k", eq("k", "region", "south")), ownID, "[[20]]", "", false},
				{"northern customers", count("customers", "k", eq("k", "region", "north")), ownID, "[[11]]", ", 1 among the rows this plan's where keeps", true},
				{"February's payments", sumOver("payments", "p", "amount", `,"where":{"kind":"binary","op":">=","left":`+col("p", "paid_on")+`,"right":{"kind":"literal","value":"2024-02-01"}}`), bankRef, "", "", false},
				{"January's payments", sumOver("payments", "p", "amount", `,"where":{"kind":"binary","op":"<","left":`+col("p", "paid_on")+`,"right":{"kind":"literal","value":"2024-02-01"}}`), bankRef, "", ", 2 among the rows this plan's where keeps", true},
			} {
				res := runAir(t, e, c.plan)
				if c.rows != "" && !strings.Contains(fmt.Sprint(res.Rows), strings.Trim(c.rows, "[]")) {
					t.Errorf("%s: rows %v, want %s", c.name, res.Rows, c.rows)
				}
				w := warningWith(res.Warnings, c.said)
				if c.warned != (w != "") || c.warned && !strings.Contains(w, c.said+c.found) || strings.Contains(w, "not probed") {
					t.Errorf("%s: warnings %q\nwant %q%s said: %v", c.name, res.Warnings, c.said, c.found, c.warned)
				}
				check, err := e.CheckPlan(context.Background(), "air", []byte(c.plan), "")
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				cw := warningWith(check.Warnings, c.said)
				if cw == "" || strings.Contains(cw, "not probed") != strings.Contains(c.plan, `"where"`) {
					t.Errorf("%s: check warnings %q, want the profile's count, said unprobed where the plan filters", c.name, check.Warnings)
				}
			}
		})
	}
}
