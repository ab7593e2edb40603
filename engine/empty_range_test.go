package engine

import (
	"context"
	"strings"
	"testing"
)

// An empty result whose plan filters a date column outside the column's
// profiled range says so, with the range: Chinook's invoices run
// 2021..2025, and a host asking for 1997 otherwise reads "no rows" as
// "no sales". A filter inside the range gives no such warning.
func TestEmptyResultNamesDateRange(t *testing.T) {
	e := chinookEngine(t, "")
	plan := func(lo, hi string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"i","column":"InvoiceId"},"alias":"id"}],"from":[{"table":"Invoice","alias":"i"}],` +
			`"where":{"kind":"between","expr":{"kind":"column","table":"i","column":"InvoiceDate"},"low":{"kind":"literal","type":"date","value":"` + lo + `"},"high":{"kind":"literal","type":"date","value":"` + hi + `"}}}`)
	}
	for _, c := range []struct {
		name, lo, hi string
		warn         bool
	}{
		{"before the data", "1997-01-01", "1997-12-31", true},
		{"after the data", "2030-01-01", "2030-12-31", true},
		{"inside the data", "2022-01-01", "2022-12-31", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.RunPlan(context.Background(), "chinook", plan(c.lo, c.hi))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range res.Warnings {
				if strings.Contains(w, "profiled range") {
					got = w
				}
			}
			if c.warn && (res.RowCount != 0 || !strings.Contains(got, `"InvoiceDate"`) || !strings.Contains(got, `"2021-`) || !strings.Contains(got, `"2025-`)) {
				t.Errorf("rows %d, warnings %q: want an empty result naming InvoiceDate's range 2021..2025", res.RowCount, res.Warnings)
			}
			if !c.warn && got != "" {
				t.Errorf("a filter inside the range warned: %q", got)
			}
		})
	}
}

// A plan with "limit": 0 returns no rows by its own request: its answer
// says so, where "No rows matched the question" told the host the data
// had none. An empty result from a filter keeps the plain sentence.
func TestLimitZeroAnswerSaysThePlanAskedForNoRows(t *testing.T) {
	e := chinookEngine(t, "")
	for _, c := range []struct{ tail, want string }{
		{`,"limit":0`, `asked for 0 rows`},
		{`,"where":{"kind":"binary","op":"<","left":{"kind":"column","table":"a","column":"ArtistId"},"right":{"kind":"literal","value":0}},"limit":5`, "No rows matched."},
		// every artist matches; the offset skipped them all
		{`,"order_by":[{"expr":{"kind":"column","table":"a","column":"ArtistId"}}],"offset":100000`, "No rows after the first 100000 the plan skipped"},
	} {
		plan := `{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"name"}],"from":[{"table":"Artist","alias":"a"}]` + c.tail + `}`
		res, err := e.RunPlan(context.Background(), "chinook", []byte(plan))
		if err != nil {
			t.Fatal(err)
		}
		if res.RowCount != 0 || !strings.Contains(res.Answer, c.want) {
			t.Errorf("%s: rows %d, answer %q, want it to say %q", c.tail, res.RowCount, res.Answer, c.want)
		}
	}
}
