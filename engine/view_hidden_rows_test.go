package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The threat: a count of appointments over v_appointment_details
// counted the test and demo accounts' and a deleted patient's, with
// nothing said, where the same count over appointments joined to
// patients named both columns; the view shows neither, so no filter on it
// can leave them out. A plan over such a view names the view, the table,
// the column, how many rows the profile saw, and the fix: the join from
// the view's patient_id with the filter, which pasted into the plan
// counts the real patients' invoices alone; a view whose definition
// filters both, or shows them, says nothing.
func TestViewsHidingTestAndDeletedRowsAreNamed(t *testing.T) {
	count := func(view string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + view + `","alias":"v"}]}`
	}
	for _, en := range everyEngine(clinicDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, count("v_appointment_details"))
			if fmt.Sprint(res.Rows) != "[[7]]" {
				t.Fatalf("rows %v, want 7", res.Rows)
			}
			w := warningWith(res.Warnings, "view v_appointment_details reads patients (6 rows when profiled), whose ")
			for _, said := range []string{
				`account_type marks test or internal records with ["demo","test"]`,
				"and whose deleted_at marks the rows deleted in place", "(1 of its 6 rows when profiled)",
				"neither filters on account_type and deleted_at nor shows them",
				"compute the figure from the tables v_appointment_details reads (its definition in describe_schema), filtering patients.account_type and patients.deleted_at",
			} {
				if !strings.Contains(w, said) {
					t.Errorf("warnings %q: want the test accounts and deleted patients the view counts named, with %q", res.Warnings, said)
				}
			}
			// a listing counts nothing: the test flag is the question's
			// choice of figures; the deleted rows are there all the same
			list := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"v","column":"patient_name"},"alias":"patient"}],"from":[{"table":"v_appointment_details","alias":"v"}]}`)
			if w := warningWith(list.Warnings, "view v_appointment_details"); strings.Contains(w, "account_type") || !strings.Contains(w, "deleted_at") {
				t.Errorf("a listing: warning %q, want the deleted rows named and not the test flag", w)
			}
			for _, view := range []string{"v_real_appointments", "v_patient_flags", "v_patients_seen"} {
				if w := warningWith(runAir(t, e, count(view)).Warnings, "view "+view); w != "" {
					t.Errorf("%s: warning %q, want none: the view filters or shows the columns", view, w)
				}
			}
			// the invoices' view shows the patient's key: the fix joins it
			sum := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"total_cents"}]},"alias":"total"}],"from":[{"table":"v_invoice_balances","alias":"v"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"v","column":"currency"},"right":{"kind":"literal","value":"GBP"}}}`
			w = warningWith(runAir(t, e, sum).Warnings, "view v_invoice_balances reads patients (6 rows when profiled)")
			if !strings.Contains(w, "join the view's patient_id to patients.id") {
				t.Fatalf("warning %q: want the join from the view's key", w)
			}
			var plan map[string]any
			if err := json.Unmarshal([]byte(sum), &plan); err != nil {
				t.Fatal(err)
			}
			plan["from"] = append(plan["from"].([]any), jsonValuesAfter(t, w, `: add `)...)
			plan["joins"] = jsonValuesAfter(t, w, `to "from" and `)
			for _, f := range jsonValuesAfter(t, w, `then add `) {
				plan["where"] = map[string]any{"kind": "binary", "op": "and", "left": plan["where"], "right": f}
			}
			fixed, _ := json.Marshal(plan)
			got := runAir(t, e, string(fixed))
			// GB: 1000 + 2000 of real patients, not the test account's 5000
			// nor the deleted patient's 700
			if fmt.Sprint(got.Rows) != "[[3000]]" || warningWith(got.Warnings, "account_type") != "" || warningWith(got.Warnings, "deleted_at") != "" {
				t.Errorf("the fixed plan %s: rows %v warnings %q, want 3000 and neither column named again", fixed, got.Rows, got.Warnings)
			}
		})
	}
}

// The threat: a sum of revenue per location over a view of bookings
// counted the test accounts' bookings, their flag being on customers,
// which the view never joins (bookings.customer_id → customers), and
// nothing was said, where the same sum over bookings was warned of. An
// aggregate over such a view names the flag with the way there: of a
// view showing the key of a table on the way (customer_id, or the
// booking_id of booking lines, two keys away), the joins as plan JSON
// which, pasted with the filter, sum the real customers' bookings alone;
// of a view showing none, the joins in words. A view that filters the
// flag, and a listing, say nothing.
func TestViewOverFlaggedParentNamesTheJoins(t *testing.T) {
	db := []string{
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, is_test BOOLEAN)",
		"INSERT INTO customers VALUES (1, 'Ann', false), (2, 'QA', true), (3, 'Bo', false)",
		"CREATE TABLE locations (id INTEGER PRIMARY KEY, name TEXT)",
		"INSERT INTO locations VALUES (1, 'Paris'), (2, 'Lyon')",
		"CREATE TABLE bookings (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), location_id INTEGER REFERENCES locations(id), amount INTEGER)",
		"INSERT INTO bookings VALUES (1, 1, 1, 10), (2, 2, 1, 500), (3, 3, 2, 20), (4, 2, 2, 700)",
		"CREATE TABLE booking_lines (id INTEGER PRIMARY KEY, booking_id INTEGER REFERENCES bookings(id), amount INTEGER)",
		"INSERT INTO booking_lines VALUES (1, 1, 6), (2, 1, 4), (3, 2, 500), (4, 3, 20), (5, 4, 700)",
		"CREATE VIEW location_revenue AS SELECT l.name, SUM(b.amount) AS revenue FROM bookings b JOIN locations l ON l.id = b.location_id GROUP BY l.name",
		"CREATE VIEW booking_amounts AS SELECT b.id AS booking_id, b.customer_id, l.name, b.amount FROM bookings b JOIN locations l ON l.id = b.location_id",
		"CREATE VIEW line_amounts AS SELECT booking_id, amount FROM booking_lines",
		"CREATE VIEW real_bookings AS SELECT b.id, b.amount FROM bookings b JOIN customers c ON c.id = b.customer_id WHERE NOT c.is_test",
	}
	sum := func(view, col string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"` + col + `"}]},"alias":"total"}],"from":[{"table":"` + view + `","alias":"v"}]}`
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			w := warningWith(runAir(t, e, sum("location_revenue", "revenue")).Warnings, "view location_revenue")
			for _, said := range []string{"belong to customers (bookings.customer_id → customers)", "is_test marks test or internal records with true",
				"compute the figure from the tables location_revenue reads (its definition in describe_schema), joining bookings.customer_id to customers.id, filtering customers.is_test"} {
				if !strings.Contains(w, said) {
					t.Errorf("location_revenue: warning %q, want %q", w, said)
				}
			}
			for _, c := range []struct{ view, col, key string }{
				{"booking_amounts", "amount", "join the view's customer_id to customers.id"},
				{"line_amounts", "amount", "join the view's booking_id to bookings.id, then bookings.customer_id to customers.id"},
			} {
				plan := sum(c.view, c.col)
				res := runAir(t, e, plan)
				if fmt.Sprint(res.Rows) != "[[1230]]" {
					t.Fatalf("%s: rows %v, want 1230", c.view, res.Rows)
				}
				w := warningWith(res.Warnings, "view "+c.view)
				if !strings.Contains(w, c.key) {
					t.Fatalf("%s: warnings %q, want %q", c.view, res.Warnings, c.key)
				}
				var p map[string]any
				if err := json.Unmarshal([]byte(plan), &p); err != nil {
					t.Fatal(err)
				}
				p["from"] = append(p["from"].([]any), jsonValuesAfter(t, w, `: add `)...)
				p["joins"] = jsonValuesAfter(t, w, `to "from" and `)
				p["where"] = jsonValuesAfter(t, w, `then add `)[0]
				fixed, _ := json.Marshal(p)
				// the real customers' bookings: 10 + 20, not the test
				// account's 500 and 700
				if got := runAir(t, e, string(fixed)); fmt.Sprint(got.Rows) != "[[30]]" || warningWith(got.Warnings, "is_test") != "" {
					t.Errorf("%s fixed %s: rows %v warnings %q, want 30 and nothing more said", c.view, fixed, got.Rows, got.Warnings)
				}
			}
			if w := warningWith(runAir(t, e, sum("real_bookings", "amount")).Warnings, "is_test"); w != "" {
				t.Errorf("a view filtering the flag: warning %q, want none", w)
			}
			list := `{"select":[{"expr":{"kind":"column","table":"v","column":"amount"},"alias":"amount"}],"from":[{"table":"booking_amounts","alias":"v"}]}`
			if w := warningWith(runAir(t, e, list).Warnings, "is_test"); w != "" {
				t.Errorf("a listing: warning %q, want none", w)
			}
		})
	}
}
