package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a computed amount of 17 digits shown as 12345678901234600
// (15 digits, the rest zeros) in the structured rows and in the answer,
// where the engine computed 12345678901234568 (SQLite's double) or the
// exact 12345678901234567.25 (PostgreSQL's numeric, DuckDB's DECIMAL, which
// come as text). Only SQLite's floating-point noise below 10^15
// (18.810000000000002) is rounded to 15 digits.
func TestComputedDecimalsKeepEveryDigit(t *testing.T) {
	res := &source.Result{Columns: []string{"a", "b", "c", "d"}, Rows: [][]any{
		{"12345678901234567.25", float64(12345678901234568), 18.810000000000002, 0.1 + 0.2},
		{"-98765432109876543210.0000000001", float64(-1e17 - 16), 1e15 + 0.25, nil},
	}}
	applyPlanTypes(res, []planast.Type{planast.TypeDecimal, planast.TypeDecimal, planast.TypeDecimal, planast.TypeDecimal})
	want := [][]any{
		{"12345678901234567.25", float64(12345678901234568), 18.81, 0.3},
		{"-98765432109876543210.0000000001", float64(-1e17 - 16), 1e15 + 0.25, nil},
	}
	if fmt.Sprint(res.Rows) != fmt.Sprint(want) {
		t.Errorf("rows %v, want %v", res.Rows, want)
	}

	// end to end on SQLite, whose decimals are doubles
	e := chinookEngine(t, "")
	plan := `{"select":[{"expr":{"kind":"binary","op":"*","left":{"kind":"cast","expr":{"kind":"literal","value":"12345678901234567.25"},"type":"decimal"},"right":{"kind":"literal","value":1}},"alias":"amount"}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`
	r, err := e.RunPlan(context.Background(), "chinook", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || r.Rows[0][0] != any(float64(12345678901234568)) || !strings.Contains(r.Answer, "12345678901234568") {
		t.Errorf("rows %v (%T), answer %q: want 12345678901234568", r.Rows, r.Rows[0][0], r.Answer)
	}
}
