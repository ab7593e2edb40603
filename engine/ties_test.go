package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// "The three most expensive tracks" with ties returns every track at the
// top price; a host told nothing reports a top 3 of many rows as a miscount.
// The result says how many rows the ties added, and only when they did.
func TestWithTiesSaysWhenRowsWereAdded(t *testing.T) {
	e := chinookEngine(t, "")
	plan := func(limit int, ties bool) []byte {
		return []byte(fmt.Sprintf(`{"select":[{"expr":{"kind":"column","table":"t","column":"Name"},"alias":"name"},{"expr":{"kind":"column","table":"t","column":"UnitPrice"},"alias":"price"}],`+
			`"from":[{"table":"Track","alias":"t"}],"order_by":[{"expr":{"kind":"column","table":"t","column":"UnitPrice"},"direction":"desc"}],"limit":%d,"with_ties":%t}`, limit, ties))
	}
	res, err := e.RunPlan(context.Background(), "chinook", plan(3, true))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("limit 3 with ties returned %d rows: %d more tie", res.RowCount, res.RowCount-3)
	if res.RowCount <= 3 || !slicesHas(res.Warnings, want) {
		t.Errorf("%d rows, warnings %q; want one containing %q", res.RowCount, res.Warnings, want)
	}
	for _, p := range [][]byte{plan(3, false)} {
		res, err := e.RunPlan(context.Background(), "chinook", p)
		if err != nil {
			t.Fatal(err)
		}
		if slicesHas(res.Warnings, "with ties returned") {
			t.Errorf("no ties asked for, warnings %q", res.Warnings)
		}
	}
}

func slicesHas(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}
