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
	total := func(x string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":` + x + `}]},"alias":"total"}],"from":[{"table":"sales","alias":"s"}]}`)
	}
	for _, en := range engines {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ctx := context.Background()
			res, err := e.RunPlan(ctx, "air", total(`{"kind":"column","table":"s","column":"price"}`))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "the cast to")
			// one example is all the profile keeps: the warning says other
			// forms may remain, and how to see that none does
			if !strings.Contains(w, `"price" holds 3 values that are not numbers (such as "$1,200.00"`) || !strings.Contains(w, "REPLACE") || !strings.Contains(w, "COUNT of the cast equals COUNT of the column") {
				t.Fatalf("rows %v warnings %q: want the 3 amounts the cast lost named, and a REPLACE", res.Rows, res.Warnings)
			}
			fixed, _, _ := strings.Cut(w[strings.Index(w, "e.g. cast ")+len("e.g. cast "):], "; other forms")
			res, err = e.RunPlan(ctx, "air", total(fixed))
			if err != nil {
				t.Fatalf("the warning's cast does not run: %v\n%s", err, fixed)
			}
			if got := fmt.Sprint(res.Rows); got != "[[2162.49]]" || warningWith(res.Warnings, "the cast to") != "" {
				t.Errorf("the warning's cast: rows %s warnings %q, want 2162.49 and no cast warning", got, res.Warnings)
			}
		})
	}
}
