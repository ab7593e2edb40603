package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
)

// testShareDB: three clinics, their owners and invoices; two owners of
// the North clinic are QA accounts (is_test = 1) whose invoices are most
// of its amount, the other clinics hold none. Visits name their owner by
// owner_id, which no foreign key declares; one visit has no owner.
var testShareDB = []string{
	"CREATE TABLE clinics (id INTEGER PRIMARY KEY, name TEXT)",
	"INSERT INTO clinics VALUES (1, 'North'), (2, 'South'), (3, 'East')",
	"CREATE TABLE owners (id INTEGER PRIMARY KEY, clinic_id INTEGER REFERENCES clinics(id), email TEXT, is_test INTEGER)",
	"INSERT INTO owners VALUES (1, 1, 'a@x.nl', 0), (2, 2, 'b@x.nl', 0), (3, 3, 'c@x.nl', 0), (4, 1, 'd@x.nl', 0), (5, 1, 'qa1@vet.test', 1), (6, 1, 'qa2@vet.test', 1)",
	"CREATE TABLE invoices (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owners(id), clinic_id INTEGER REFERENCES clinics(id), total DECIMAL(10,2))",
	"INSERT INTO invoices VALUES (1, 1, 1, 120.50), (2, 2, 2, 80.25), (3, 3, 3, 42.00), (4, 4, 1, 99.75), (5, 5, 1, 1500.25), (6, 6, 1, 2500.50), (7, 5, 1, 10.10), (8, 1, 1, 5.01), (9, 2, 2, 19.75)",
	"CREATE TABLE visits (id INTEGER PRIMARY KEY, owner_id INTEGER, minutes INTEGER)",
	"INSERT INTO visits VALUES (1, 1, 10), (2, 5, 20), (3, 6, 30), (4, 2, 40), (5, 5, 50), (6, NULL, 60)",
}

// The threat: a plan summing invoices joined to owners and clinics was
// told owners.is_test is never read, so test rows count; the question
// said nothing of test accounts, and the host could not tell whether it
// mattered (a large share at one clinic, none at the others) without a
// breakdown of its own. A run says how many of the rows the plan reads
// the flag marks, in how many of its groups, and their share of its SUM,
// each as a direct query counts it, and the warning's filter, pasted,
// takes exactly that share away; where the plan's rows hold none (a
// where that keeps another clinic, or leaves the QA accounts out by
// their email), it says so and that the filter would not change this
// result. The flag is probed through the foreign key to owners when the
// plan does not join them, and through a link no foreign key declares.
// check_plan, which runs nothing, words the warning as before.
func TestTestFlagShareIsProbed(t *testing.T) {
	col := func(a, c string) string { return `{"kind":"column","table":"` + a + `","column":"` + c + `"}` }
	sumTotal := `{"expr":{"kind":"func","name":"SUM","args":[` + col("i", "total") + `]},"alias":"total"}`
	// invoices joined to owners (and clinics when grouped by clinic)
	joined := func(grouped bool, where string) string {
		p := `{"select":[`
		if grouped {
			p += `{"expr":` + col("c", "name") + `,"alias":"clinic"},`
		}
		p += sumTotal + `],"from":[{"table":"invoices","alias":"i"},{"table":"owners","alias":"o"},{"table":"clinics","alias":"c"}],` +
			`"joins":[{"type":"inner","left":"i","right":"o","on":[{"left_column":"owner_id","right_column":"id"}]},{"type":"inner","left":"i","right":"c","on":[{"left_column":"clinic_id","right_column":"id"}]}]`
		if where != "" {
			p += `,"where":` + where
		}
		if grouped {
			p += `,"group_by":[` + col("c", "name") + `]`
		}
		return p + `}`
	}
	// invoices alone, grouped by clinic; where is "" or a filter
	alone := func(where string) string {
		p := `{"select":[{"expr":` + col("i", "clinic_id") + `,"alias":"clinic"},` + sumTotal + `],"from":[{"table":"invoices","alias":"i"}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `,"group_by":[` + col("i", "clinic_id") + `]}`
	}
	isTest := `{"kind":"binary","op":"=","left":` + col("o", "is_test") + `,"right":{"kind":"literal","value":1}}`
	southOnly := `{"kind":"binary","op":"=","left":` + col("c", "name") + `,"right":{"kind":"literal","value":"South"}}`
	noQA := `{"kind":"like","expr":` + col("o", "email") + `,"pattern":{"kind":"literal","value":"%@vet.test"},"negated":true}`
	const (
		flagHead   = "owners.is_test marks test or internal records with 1"
		parentHead = "each row of invoices belongs to one of owners (invoices.owner_id → owners)"
	)
	for _, en := range everyEngine(testShareDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			// what direct queries count: the rows read, the flagged ones,
			// the whole sum and the flagged rows' part of it
			cell := func(plan string) string {
				t.Helper()
				res := runAir(t, e, plan)
				if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
					t.Fatalf("%s: rows %v", plan, res.Rows)
				}
				return cellfmt.Value(res.Rows[0][0], res.ColumnTypes[0])
			}
			count := func(where string) string {
				p := joined(false, where)
				return cell(strings.Replace(p, sumTotal, `{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}`, 1))
			}
			rows, flagged := count(""), count(isTest)
			total, held := cell(joined(false, "")), cell(joined(false, isTest))
			if rows != "9" || flagged != "3" {
				t.Fatalf("fixture: %s rows, %s flagged", rows, flagged)
			}
			effect := fmt.Sprintf("%s of the %s rows this plan reads are of records it marks (in 1 of its 3 groups), holding %s of the %s its SUM(i.total) adds: they count in the result; if they should not, add ", flagged, rows, held, total)

			res := runAir(t, e, joined(true, ""))
			w := warningWith(res.Warnings, flagHead)
			if !strings.Contains(w, ", and this plan never reads it: "+effect) {
				t.Fatalf("warnings %q\nwant the effect said: %q", res.Warnings, effect)
			}
			// the filter, pasted, takes the flagged rows' part away: in
			// the North, the others unchanged
			fix := pastedJSON(t, w, "if they should not, add ")
			after := runAir(t, e, joined(true, fix))
			if warningWith(after.Warnings, "is_test") != "" {
				t.Errorf("with the filter: warnings %q, want the flag no more said", after.Warnings)
			}
			if got, want := decimal(t, cell(joined(false, fix))), new(big.Rat).Sub(decimal(t, total), decimal(t, held)); got.Cmp(want) != 0 {
				t.Errorf("with the filter the sum is %s, want %s - %s", got.FloatString(2), total, held)
			}

			// the rows read hold no QA account: said, and the filter's
			// advice is that it changes nothing here
			for _, where := range []string{southOnly, noQA} {
				res := runAir(t, e, joined(true, where))
				w := warningWith(res.Warnings, flagHead)
				want := ", and this plan never reads it: none of the 2 rows this plan reads is of a record it marks, so leaving them out would not change this result; to keep them out should some be added, add "
				if where == noQA {
					want = strings.Replace(want, "the 2 rows", "the 6 rows", 1)
				}
				if !strings.Contains(w, want) {
					t.Errorf("where %s: warnings %q\nwant %q", where, res.Warnings, want)
				}
			}

			// no row read: nothing to count, the warning as the profile
			// words it
			nowhere := strings.Replace(southOnly, "South", "West", 1)
			for _, grouped := range []bool{true, false} {
				if w := warningWith(runAir(t, e, joined(grouped, nowhere)).Warnings, flagHead); !strings.Contains(w, "never reads it: their rows count in the result; if they should not, add ") {
					t.Errorf("no row read (grouped %v): warning %q, want it as the profile words it", grouped, w)
				}
			}

			// the flag on the owners the invoices belong to, not joined:
			// the probe joins them
			res = runAir(t, e, alone(""))
			w = warningWith(res.Warnings, parentHead)
			parentEffect := strings.Replace(strings.TrimSuffix(effect, "add "), "are of records", "belong to records", 1)
			if !strings.Contains(w, "and this plan never reads it: "+parentEffect+"join owners and filter on is_test, e.g. ") {
				t.Fatalf("warnings %q\nwant the effect said: %q", res.Warnings, parentEffect)
			}
			filter := pastedJSON(t, w, "e.g. ")
			withOwners := strings.Replace(alone(filter), `"from":[{"table":"invoices","alias":"i"}]`,
				`"from":[{"table":"invoices","alias":"i"},{"table":"owners","alias":"owners"}],"joins":[{"type":"inner","left":"i","right":"owners","on":[{"left_column":"owner_id","right_column":"id"}]}]`, 1)
			after = runAir(t, e, withOwners)
			sum := new(big.Rat)
			for i, r := range after.Rows {
				sum.Add(sum, decimal(t, cellfmt.Value(r[1], after.ColumnTypes[1])))
				if i > 0 && fmt.Sprint(r[0]) == fmt.Sprint(after.Rows[i-1][0]) {
					t.Errorf("joined with the filter: rows %v, want one per clinic", after.Rows)
				}
			}
			if want := new(big.Rat).Sub(decimal(t, total), decimal(t, held)); sum.Cmp(want) != 0 || warningWith(after.Warnings, "is_test") != "" {
				t.Errorf("joined with the filter: rows %v (sum %s) warnings %q, want %s - %s and the flag no more said", after.Rows, sum.FloatString(2), after.Warnings, total, held)
			}

			// visits name their owner by a column no key declares
			res = runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"visits","alias":"v"}]}`)
			w = warningWith(res.Warnings, "each row of visits belongs to one of owners")
			if !strings.Contains(w, "linked by name") || !strings.Contains(w, "never reads it: 3 of the 6 rows this plan reads belong to records it marks: they count in the result") {
				t.Errorf("visits: warnings %q, want 3 of the 6 visits said (the one of no owner read too) to be test accounts'", res.Warnings)
			}

			// a check runs nothing: the warning as the profile words it
			check, err := e.CheckPlan(context.Background(), "air", []byte(joined(true, "")), "")
			if err != nil {
				t.Fatal(err)
			}
			if cw := warningWith(check.Warnings, flagHead); !strings.Contains(cw, "never reads it: their rows count in the result; if they should not, add ") {
				t.Errorf("check warnings %q, want the flag's warning unprobed", check.Warnings)
			}
		})
	}
}

// pastedJSON is the JSON value in w right after marker, as text.
func pastedJSON(t *testing.T, w, marker string) string {
	t.Helper()
	v := jsonValuesAfter(t, w, marker)[0]
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// decimal reads s, a number as a result prints it, exactly.
func decimal(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("%q is no number", s)
	}
	return r
}
