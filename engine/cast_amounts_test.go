package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

var amountsDB = []string{
	"CREATE TABLE sales (id INTEGER PRIMARY KEY, price TEXT)",
	"INSERT INTO sales VALUES (1, '$1,200.00'), (2, '$850.50'), (3, '$99.99'), (4, '12'), (5, NULL)",
}

// Threat: prices stored as text the way people write them ('$1,200.00').
// A cast to a number reads each as NULL on every engine, so a total is
// 12 where the data says 2162.49, and before profiling counted such
// columns (only columns whose values mostly parse were counted) nothing
// said so. The result must say how many values the cast lost, show one,
// and give a cast that, pasted into the plan, reads them all.
func TestCastOfAmountsWrittenForPeopleIsNamed(t *testing.T) {
	engines := everyEngine(amountsDB)
	for _, en := range engines {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			res, err := e.RunPlan(ctx, "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "the cast to")
			// one example is all the profile keeps: the warning says other
			// forms may remain, and how to see that none does
			if !strings.Contains(w, `"price" holds 3 values that are not numbers (such as "$1,200.00"`) || !strings.Contains(w, "REPLACE") || !strings.Contains(w, "COUNT of the cast equals COUNT of the column") {
				t.Fatalf("rows %v warnings %q: want the 3 amounts the cast lost named, and a REPLACE", res.Rows, res.Warnings)
			}
			res = runWarningsCast(t, e, w)
			if got := fmt.Sprint(res.Rows); got != "[[2162.49]]" || warningWith(res.Warnings, "the cast to") != "" {
				t.Errorf("the warning's cast: rows %s warnings %q, want 2162.49 and no cast warning", got, res.Warnings)
			}
		})
	}
}

// Threat: amounts written with a decimal comma ('€1.234,50', '€50,00').
// The fix that removes a thousands comma reads '50,00' as 5000, a total a
// hundred times too large that no NULL betrays. The warning's cast must
// read the comma as the decimal point and the dots as separators, and
// give the true total.
func TestCastOfDecimalCommaAmountsHasAFix(t *testing.T) {
	db := []string{
		"CREATE TABLE sales (id INTEGER PRIMARY KEY, price TEXT)",
		"INSERT INTO sales VALUES (1, '€1.234,50'), (2, '€50,00'), (3, '€99,99'), (4, '12'), (5, NULL)",
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "the cast to")
			if !strings.Contains(w, "decimal point") {
				t.Fatalf("warnings %q: want a cast that reads the decimal comma", res.Warnings)
			}
			if got := fmt.Sprint(runWarningsCast(t, e, w).Rows); got != "[[1396.49]]" {
				t.Errorf("the warning's cast: rows %s, want 1396.49", got)
			}
		})
	}
}

// salesTotal is the plan summing the cast of x to decimal over sales.
func salesTotal(x string) []byte {
	return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":` + x + `}]},"alias":"total"}],"from":[{"table":"sales","alias":"s"}]}`)
}

// runWarningsCast runs salesTotal over the cast a cast warning w gives.
func runWarningsCast(t *testing.T, e *Engine, w string) *Result {
	t.Helper()
	i := strings.Index(w, "e.g. cast ")
	if i < 0 {
		t.Fatalf("warning %q gives no cast", w)
	}
	fixed, _, _ := strings.Cut(w[i+len("e.g. cast "):], "; other forms")
	res, err := e.RunPlan(context.Background(), "air", salesTotal(fixed))
	if err != nil {
		t.Fatalf("the warning's cast does not run: %v\n%s", err, fixed)
	}
	return res
}

// Threat: a column of rates holding numbers, a blank and amounts written
// for people ('$85.00', '1,050'). The warning's example was the blank (the
// least value), which says nothing of the amounts, and with it no fix was
// given, so an average short of the truth looked explained. The example
// is a value that is not blank, and the amount fix comes with it.
func TestCastExampleIsNotABlank(t *testing.T) {
	stmts := []string{
		"CREATE TABLE sales (id INTEGER PRIMARY KEY, price TEXT)",
		"INSERT INTO sales VALUES (1, ''), (2, '$85.00'), (3, '1,050'), (4, '90'), (5, '100'), (6, ' ')",
	}
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "the cast to")
			if !strings.Contains(w, `"price" holds 4 values that are not numbers (such as "$85.00"`) || !strings.Contains(w, "REPLACE") {
				t.Errorf("warnings %q: want the example $85.00, not a blank, and the REPLACE fix", res.Warnings)
			}
		})
	}
}

// Threat: refunds written 'EUR 2.49' beside '€2.29' and '2.50'. The fix
// read one example and removed only the euro sign, so the amounts with a
// currency code stayed NULL after the pasted cast and the total looked
// complete. The cast given reads every form the samples show: codes,
// signs, spaces and decimal commas ('EUR 1.234,50'); a unit written in
// lower case ('12 kgs') or in capitals that are no ISO currency code ('800
// LBS') is not taken for a currency.
func TestCastFixReadsCurrencyCodesAndEveryForm(t *testing.T) {
	for _, c := range []struct {
		name, values, want string
	}{
		{"codes", "('€2.29'), ('EUR 2.49'), ('2.50'), ('EUR 10.00'), ('12.00 EUR'), (NULL)", "29.28"},
		{"decimal comma", "('EUR 2,49'), ('€1.234,50'), ('3,00'), ('4,01 EUR')", "1244"},
	} {
		db := []string{
			"CREATE TABLE sales (price TEXT)",
			"INSERT INTO sales (price) VALUES " + c.values,
		}
		for _, en := range everyEngine(db) {
			t.Run(c.name+"/"+en.name, func(t *testing.T) {
				e := specEngine(t, en.spec(t))
				res, err := e.RunPlan(context.Background(), "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
				if err != nil {
					t.Fatal(err)
				}
				w := warningWith(res.Warnings, "the cast to")
				if !strings.Contains(w, `remove "EUR"`) {
					t.Fatalf("warnings %q: want the currency code removed", res.Warnings)
				}
				got := runWarningsCast(t, e, w)
				if len(got.Rows) != 1 || strings.TrimSuffix(fmt.Sprint(got.Rows[0][0]), ".00") != c.want || warningWith(got.Warnings, "the cast to") != "" {
					t.Errorf("the warning's cast: rows %v warnings %q, want %s and no value lost", got.Rows, got.Warnings, c.want)
				}
			})
		}
	}
	db := []string{
		"CREATE TABLE sales (price TEXT)",
		"INSERT INTO sales (price) VALUES ('12 kgs'), ('3 kgs'), ('800 LBS'), ('4')",
	}
	e := specEngine(t, everyEngine(db)[0].spec(t))
	res, err := e.RunPlan(context.Background(), "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "the cast to"); strings.Contains(w, "amounts written for people") {
		t.Errorf("a unit taken for a currency: %q", w)
	}
}

// Threat: weights written with their unit ('103.5 kg') beside bare ones.
// The cast read them as NULL and the warning gave no cast, so a host
// removed the unit and the comma by hand, reading decimal commas ten
// times too large. Where the column writes one unit, the warning's cast
// removes it and reads every weight; where it writes several ('kg',
// 'lbs'), removing them would add pounds to kilograms, and it does not.
func TestCastOfMeasuresWrittenWithTheirUnit(t *testing.T) {
	for _, c := range []struct {
		name, values string
		want         string // the total the warning's cast gives; "" for no cast
	}{
		{"one unit", "(1, ' 103.5 kg'), (2, '12 kg'), (3, '7.5'), (4, '20')", "143"},
		{"two units", "(1, '103.5 kg'), (2, '12 lbs'), (3, '7.5'), (4, '20')", ""},
	} {
		db := []string{"CREATE TABLE sales (id INTEGER PRIMARY KEY, price TEXT)", "INSERT INTO sales VALUES " + c.values}
		for _, en := range everyEngine(db) {
			t.Run(c.name+"/"+en.name, func(t *testing.T) {
				e := specEngine(t, en.spec(t))
				res, err := e.RunPlan(context.Background(), "air", salesTotal(`{"kind":"column","table":"s","column":"price"}`))
				if err != nil {
					t.Fatal(err)
				}
				w := warningWith(res.Warnings, "the cast to")
				if c.want == "" {
					if strings.Contains(w, "e.g. cast ") {
						t.Errorf("warning %q: a cast that removes two units adds pounds to kilograms", w)
					}
					return
				}
				res = runWarningsCast(t, e, w)
				// PostgreSQL's numeric keeps the scale of the text read (143.0)
				if got := strings.TrimSuffix(strings.Trim(fmt.Sprint(res.Rows), "[]"), ".0"); got != c.want || warningWith(res.Warnings, "the cast to") != "" {
					t.Errorf("the warning's cast: rows %s warnings %q, want %s and no cast warning", got, res.Warnings, c.want)
				}
			})
		}
	}
}
