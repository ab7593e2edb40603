package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a PostgreSQL view of revenue per location and currency,
// summed per location, added euros to pounds (London 5583.63 EUR +
// 31611.29 GBP said 37194.92) with no word, while the same sum over the
// table was warned: the view's columns are not profiled, so the currency
// check saw no values. A run counts the currencies of the rows summed
// (as it does for a table whose where keeps fewer); a check says they
// were not counted; a sum of one currency is told nothing.
func TestUnprofiledCurrencyOfAViewIsCounted(t *testing.T) {
	f := sourcetest.NewPGFixture(t,
		"CREATE TABLE bookings (id INTEGER PRIMARY KEY, location TEXT, currency TEXT, amount NUMERIC(10,2))",
		"INSERT INTO bookings VALUES (1, 'London', 'GBP', 10), (2, 'London', 'EUR', 5), (3, 'Paris', 'EUR', 7), (4, 'Paris', 'EUR', 1)",
		"CREATE VIEW location_revenue AS SELECT location, currency, SUM(amount) AS revenue FROM bookings GROUP BY location, currency")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	sum := func(where string) string {
		return `{"select":[{"expr":{"kind":"column","table":"v","column":"location"},"alias":"loc"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"revenue"}]},"alias":"rev"}],` +
			`"from":[{"table":"location_revenue","alias":"v"}]` + where + `,"group_by":[{"kind":"column","table":"v","column":"location"}],"order_by":[{"expr":{"kind":"column","column":"loc"}}]}`
	}
	mixed := runAir(t, e, sum(""))
	if w := warningWith(mixed.Warnings, "currencies"); fmt.Sprint(mixed.Rows) != "[[London 15.00] [Paris 8.00]]" || !strings.Contains(w, "SUM(v.revenue)") || !strings.Contains(w, "up to 2 currencies within one group") {
		t.Errorf("a view's sum across currencies: rows %v, warnings %q", mixed.Rows, mixed.Warnings)
	}
	whole := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"revenue"}]},"alias":"rev"}],"from":[{"table":"location_revenue","alias":"v"}]}`)
	if w := warningWith(whole.Warnings, "currencies"); !strings.Contains(w, "adds amounts in 2 currencies (counted in the rows it sums") {
		t.Errorf("a view's whole sum across currencies: rows %v, warnings %q", whole.Rows, whole.Warnings)
	}
	one := runAir(t, e, sum(`,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"v","column":"location"},"right":{"kind":"literal","value":"Paris"}}`))
	if w := warningWith(one.Warnings, "currencies"); w != "" {
		t.Errorf("Paris sums euros alone, yet: %q", w)
	}
	pc, err := e.CheckPlan(t.Context(), "air", []byte(sum("")), "")
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(pc.Warnings, "currencies"); !strings.Contains(w, "not profiled") {
		t.Errorf("check of a view's sum across currencies: %q", pc.Warnings)
	}
}
