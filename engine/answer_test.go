package engine

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// The one-line summary states each value as the result table prints it: a
// host quoting the summary ("avg_payment 5.31") must not give a number
// that differs from the rows (5.308).
func TestSummaryNumbersMatchTable(t *testing.T) {
	r := &Result{Columns: []string{"country", "avg_payment"}, Rows: [][]any{
		{"Nauru", 4.796}, {"Tuvalu", 5.308}, {"Chad", 6.659999999999999}, {nil, 1265793.0449},
	}}
	got := summarise(r)
	for _, row := range r.Rows[:3] {
		for i, v := range row {
			if isString(v) {
				continue // text is quoted (answer_quote_test.go)
			}
			if want := r.Columns[i] + " " + cellfmt.Value(v, planast.TypeFloat); !strings.Contains(got, want) {
				t.Errorf("summary %q lacks %q as the table prints it", got, want)
			}
		}
	}
}

func isString(v any) bool { _, ok := v.(string); return ok }
