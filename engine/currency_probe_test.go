package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// clinicDB: sites each bill in one currency (two in GB, both GBP; FR in
// EUR; CH in CHF); practitioners work at one site; invoices carry no
// currency, their site does. Patient 1 was seen in GB and in FR.
// Patients are real, test or demo accounts, and one was deleted in
// place. The views read patients without filtering either column
// (v_appointment_details, v_invoice_balances, which shows the patient's
// key), or filter both (v_real_appointments), or show them
// (v_patient_flags; v_patients_seen, by p.*).
var clinicDB = []string{
	"CREATE TABLE sites (id INTEGER PRIMARY KEY, country_code TEXT, currency TEXT, timezone TEXT)",
	"INSERT INTO sites VALUES (1, 'GB', 'GBP', 'Europe/London'), (2, 'GB', 'GBP', 'Europe/London'), (3, 'FR', 'EUR', 'Europe/Paris'), (4, 'CH', 'CHF', 'Europe/Zurich')",
	"CREATE TABLE practitioners (id INTEGER PRIMARY KEY, site_id INTEGER REFERENCES sites(id), name TEXT)",
	"INSERT INTO practitioners VALUES (1, 1, 'Ames'), (2, 2, 'Bell'), (3, 3, 'Cruz'), (4, 4, 'Dahl')",
	"CREATE TABLE patients (id INTEGER PRIMARY KEY, name TEXT, account_type TEXT, deleted_at TIMESTAMP)",
	"INSERT INTO patients VALUES (1, 'Ann', 'patient', NULL), (2, 'Bo', 'patient', NULL), (3, 'QA one', 'test', NULL), (4, 'Demo', 'demo', NULL), (5, 'Cy', 'patient', NULL), (6, 'Di', 'patient', '2025-03-01 10:00:00')",
	"CREATE TABLE appointments (id INTEGER PRIMARY KEY, practitioner_id INTEGER REFERENCES practitioners(id), patient_id INTEGER REFERENCES patients(id), starts_at TIMESTAMP)",
	"INSERT INTO appointments VALUES (1, 1, 1, '2025-02-01 09:00:00'), (2, 1, 3, '2025-02-01 10:00:00'), (3, 2, 2, '2025-02-02 09:00:00'), (4, 3, 1, '2025-02-03 09:00:00'), (5, 4, 4, '2025-02-04 09:00:00'), (6, 2, 6, '2025-02-05 09:00:00'), (7, 3, 5, '2025-02-06 09:00:00')",
	"CREATE TABLE invoices (id INTEGER PRIMARY KEY, appointment_id INTEGER REFERENCES appointments(id), total_cents INTEGER)",
	"INSERT INTO invoices VALUES (1, 1, 1000), (2, 2, 5000), (3, 3, 2000), (4, 4, 3000), (5, 5, 4000), (6, 6, 700), (7, 7, 900)",
	"CREATE VIEW v_appointment_details AS SELECT a.id AS appointment_id, a.starts_at, p.name AS patient_name, pr.name AS practitioner_name FROM appointments a JOIN patients p ON p.id = a.patient_id JOIN practitioners pr ON pr.id = a.practitioner_id",
	"CREATE VIEW v_invoice_balances AS SELECT i.id AS invoice_id, a.patient_id, i.total_cents, s.currency FROM invoices i JOIN appointments a ON a.id = i.appointment_id JOIN patients p ON p.id = a.patient_id JOIN practitioners pr ON pr.id = a.practitioner_id JOIN sites s ON s.id = pr.site_id",
	"CREATE VIEW v_real_appointments AS SELECT a.id AS appointment_id, a.starts_at FROM appointments a JOIN patients p ON p.id = a.patient_id WHERE p.account_type = 'patient' AND p.deleted_at IS NULL",
	"CREATE VIEW v_patient_flags AS SELECT a.id AS appointment_id, p.account_type, p.deleted_at FROM appointments a JOIN patients p ON p.id = a.patient_id",
	"CREATE VIEW v_patients_seen AS SELECT p.*, a.id AS appointment_id FROM appointments a JOIN patients p ON p.id = a.patient_id",
}

// clinicSum is SUM(i.total_cents) over invoices joined to their
// appointments, practitioners and sites, with rest (more keys of the
// query, each led by a comma) and more selected items before the sum.
func clinicSum(items, rest string) string {
	return `{"select":[` + items + `{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"total_cents"}]},"alias":"total"}],` +
		`"from":[{"table":"invoices","alias":"i"},{"table":"appointments","alias":"a"},{"table":"practitioners","alias":"p"},{"table":"sites","alias":"s"}],` +
		`"joins":[{"type":"inner","left":"i","right":"a","on":[{"left_column":"appointment_id","right_column":"id"}]},` +
		`{"type":"inner","left":"a","right":"p","on":[{"left_column":"practitioner_id","right_column":"id"}]},` +
		`{"type":"inner","left":"p","right":"s","on":[{"left_column":"site_id","right_column":"id"}]}]` + rest + `}`
}

// The threat: a correct per-practitioner sum of the GB sites' invoices
// was told it "adds amounts in 3 currencies, a figure in none of them":
// the where keeps one currency through the country, which the profile of
// the currency column cannot see, and a host taught that the warning is
// wrong skips it where it is right. A run probes the rows it sums: a
// where or a grouping that keeps one currency per group earns nothing; a
// group holding two is named with the count found; a check, which runs
// nothing, keeps the profile's count and says the filters were not
// probed.
func TestCurrencyWarningCountsTheRowsSummed(t *testing.T) {
	byPractitioner := `{"expr":{"kind":"column","table":"p","column":"id"},"alias":"practitioner"},`
	col := func(a, c string) string { return `{"kind":"column","table":"` + a + `","column":"` + c + `"}` }
	eq := func(a, c, v string) string {
		return `{"kind":"binary","op":"=","left":` + col(a, c) + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	in := func(a, c string, vs ...string) string {
		var lits []string
		for _, v := range vs {
			lits = append(lits, `{"kind":"literal","value":"`+v+`"}`)
		}
		return `{"kind":"in","expr":` + col(a, c) + `,"list":[` + strings.Join(lits, ",") + `]}`
	}
	groupBy := func(exprs ...string) string { return `,"group_by":[` + strings.Join(exprs, ",") + `]` }
	for _, en := range everyEngine(clinicDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, plan string
				rows       string // "" to leave unchecked
				run        string // a phrase of the run's warning, "" for none
			}{
				{"GB's sum per practitioner", clinicSum(byPractitioner, `,"where":`+eq("s", "country_code", "GB")+groupBy(col("p", "id"))+`,"order_by":[{"expr":`+col("p", "id")+`}]`),
					"[[1 6000] [2 2700]]", ""},
				{"GB's sum", clinicSum("", `,"where":`+eq("s", "country_code", "GB")), "[[8700]]", ""},
				{"every site's sum per practitioner", clinicSum(byPractitioner, groupBy(col("p", "id"))), "", ""},
				{"per country", clinicSum(`{"expr":`+col("s", "country_code")+`,"alias":"country"},`, groupBy(col("s", "country_code"))), "", ""},
				{"a country with no invoices", clinicSum("", `,"where":`+eq("s", "country_code", "US")), "", ""},
				{"GB and FR summed", clinicSum("", `,"where":`+in("s", "country_code", "GB", "FR")), "[[12600]]",
					`SUM(i.total_cents) adds amounts in 2 currencies (counted in the rows it sums; of the whole column, "currency" holds "CHF", "EUR", "GBP"), a figure in none of them; group by s.currency`},
				// patient 1 was seen in GB and in FR: one group of five
				// holds two currencies
				{"per patient", clinicSum(`{"expr":`+col("a", "patient_id")+`,"alias":"patient"},`, groupBy(col("a", "patient_id"))), "",
					`SUM(i.total_cents) adds amounts in up to 2 currencies within one group (1 of its 6 groups hold more than one, counted in the rows it sums; of the whole column, "currency" holds "CHF", "EUR", "GBP")`},
				{"every site's sum", clinicSum("", ""), "", `SUM(i.total_cents) adds amounts in 3 currencies ("currency" holds "CHF", "EUR", "GBP"), a figure in none of them; group by s.currency or keep one currency in the where`},
			} {
				res := runAir(t, e, c.plan)
				if c.rows != "" && fmt.Sprint(res.Rows) != c.rows {
					t.Errorf("%s: rows %v, want %s", c.name, res.Rows, c.rows)
				}
				got := warningWith(res.Warnings, "adds amounts in")
				if c.run == "" && got != "" || c.run != "" && !strings.Contains(got, c.run) {
					t.Errorf("%s: run warnings %q\nwant one with %q", c.name, res.Warnings, c.run)
				}
				if strings.Contains(got, "not probed") {
					t.Errorf("%s: the run's warning %q says its filters were not probed", c.name, got)
				}
				check, err := e.CheckPlan(context.Background(), "air", []byte(c.plan), "")
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				// a check runs no probe: the profile's count, said to be one
				cw := warningWith(check.Warnings, "adds amounts in 3 currencies")
				if !strings.Contains(cw, "the rows this plan's where, joins and grouping keep, which were not probed") {
					t.Errorf("%s: check warnings %q, want the profile's count said unprobed", c.name, check.Warnings)
				}
			}
		})
	}
}

// The same of a currency held by a table the plan does not join: the
// payments of two euro orders, picked by their order, hold one currency;
// two payments of a euro and a dollar order hold two of three.
func TestHeldCurrencyWarningCountsTheRowsSummed(t *testing.T) {
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "sqlite", Path: sourcetest.TempDB(t, heldCurrencyDB...), RowLimit: 1000})
	ids := func(col string, vs ...int) string {
		var lits []string
		for _, v := range vs {
			lits = append(lits, fmt.Sprintf(`{"kind":"literal","value":%d}`, v))
		}
		return `,"where":{"kind":"in","expr":{"kind":"column","table":"p","column":"` + col + `"},"list":[` + strings.Join(lits, ",") + `]}`
	}
	for _, c := range []struct {
		name, plan, want string
	}{
		{"two euro orders' payments", sumOver("payments", "p", "amount", ids("order_id", 1, 4)), ""},
		{"a euro and a dollar payment", sumOver("payments", "p", "amount", ids("payment_id", 1, 2)),
			`SUM(p.amount) adds amounts in 2 currencies (counted in the rows it sums; of the whole column, "orders.currency" holds "EUR", "GBP", "USD"), a figure in none of them: each row of payments belongs to one of orders`},
	} {
		ws := runAir(t, e, c.plan).Warnings
		got := warningWith(ws, "adds amounts in")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: warnings %q\nwant one with %q", c.name, ws, c.want)
		}
		check, err := e.CheckPlan(context.Background(), "air", []byte(c.plan), "")
		if err != nil {
			t.Fatal(err)
		}
		if w := warningWith(check.Warnings, "adds amounts in 3 currencies"); !strings.Contains(w, "not probed") {
			t.Errorf("%s: check warnings %q, want the profile's count said unprobed", c.name, check.Warnings)
		}
	}
}
