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

// "The three priciest tracks" as RANK() <= 3 keeps every track at a tied
// price: thousands of rows for a top 3, read as a miscount or cut to three
// arbitrary ones by the host. The result says how many rows the ties
// added; ROW_NUMBER, and a window that is no rank (MIN(price) < 3 keeps
// every row, and is no top 2), say nothing.
func TestRankQualifySaysWhenTiesAddedRows(t *testing.T) {
	e := chinookEngine(t, "")
	plan := func(fn, op string) []byte {
		args := "[]"
		if fn == "MIN" {
			args = `[{"kind":"column","table":"t","column":"UnitPrice"}]`
		}
		return []byte(`{"select":[{"expr":{"kind":"column","table":"t","column":"Name"},"alias":"name"},` +
			`{"expr":{"kind":"window","name":"` + fn + `","args":` + args + `,"order_by":[{"expr":{"kind":"column","table":"t","column":"UnitPrice"},"direction":"desc"}]},"alias":"rnk"}],` +
			`"from":[{"table":"Track","alias":"t"}],"qualify":{"kind":"binary","op":"` + op + `","left":{"kind":"column","column":"rnk"},"right":{"kind":"literal","value":3}}}`)
	}
	for _, c := range []struct {
		fn, op string
		named  bool
	}{{"RANK", "<=", true}, {"DENSE_RANK", "<", true}, {"ROW_NUMBER", "<=", false}, {"MIN", "<", false}} {
		res, err := e.RunPlan(context.Background(), "chinook", plan(c.fn, c.op))
		if err != nil {
			t.Fatalf("%s: %v", c.fn, err)
		}
		if got := slicesHas(res.Warnings, "rows that tie share a rank"); got != c.named {
			t.Errorf("%s %s 3: %d rows, warnings %q, want the ties named: %v", c.fn, c.op, res.RowCount, res.Warnings, c.named)
		}
	}
}
