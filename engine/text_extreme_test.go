package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: "when was the latest order?" over a text column of dates
// written in more than one form. MAX compares text, so 'n/a' or
// '05/01/2024' comes back as the latest date on every engine, and it
// looks like an answer. The result must say the column holds other forms
// and that the extreme text is not the extreme date; a column of ISO
// dates only must not be warned.
func TestExtremeOfTextDatesInManyFormsIsNamed(t *testing.T) {
	for _, en := range everyEngine(castNullsDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				fn, col string
				named   bool
				date    string // the extreme of the dates
			}{
				{"MAX", "day", true, "2024-04-01"},
				{"MIN", "day", true, "2024-01-05"},
				{"MAX", "clean", false, ""},
			} {
				plan := `{"select":[{"expr":{"kind":"func","name":"` + c.fn + `","args":[{"kind":"column","table":"o","column":"` + c.col + `"}]},"alias":"x"}],"from":[{"table":"orders","alias":"o"}]}`
				res, err := e.RunPlan(context.Background(), "air", []byte(plan))
				if err != nil {
					t.Fatal(err)
				}
				w := warningWith(res.Warnings, "compares text")
				if got := strings.Contains(w, c.fn+"(o."+c.col+")") && strings.Contains(w, `"05/01/2024"`); got != c.named {
					t.Errorf("%s(%s): rows %v warnings %q, want the text comparison named: %v", c.fn, c.col, res.Rows, res.Warnings, c.named)
				}
				if !c.named {
					continue
				}
				// the dates the warning's expression reads give the true extreme
				_, fix, _ := strings.Cut(w, "compare dates instead: "+c.fn+" of ")
				fix, _, _ = strings.Cut(fix, " (the NN/NN/YYYY ones")
				fixed, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"`+c.fn+`","args":[`+fix+`]},"alias":"x"}],"from":[{"table":"orders","alias":"o"}]}`))
				if err != nil {
					t.Fatalf("%s: the warning's expression %q: %v", c.fn, fix, err)
				}
				if got := fmt.Sprint(fixed.Rows); !strings.Contains(got, c.date) {
					t.Errorf("%s over the warning's expression = %s, want %s", c.fn, got, c.date)
				}
			}
		})
	}
}
