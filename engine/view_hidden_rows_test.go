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
