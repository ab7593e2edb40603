package engine

import (
	"fmt"
	"strings"
	"testing"
)

// The threat: commission invoiced per month was summed over every
// invoice, the voided ones among them, each issued again corrected: 700
// where 400 was invoiced, and nothing said so, the status column being no
// flag by its name. A status whose values include one that names a
// deletion ('void') marks those rows: a sum that never reads the status
// is told, with the filter that leaves them out (which, pasted, gives the
// figure); a plan that filters or groups by the status, and a status of
// no such value, are told nothing.
func TestVoidStatusIsNamedLikeADeletedMark(t *testing.T) {
	stmts := []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, status TEXT, amount INTEGER)",
		"INSERT INTO invoices VALUES (1, 'paid', 100), (2, 'void', 300), (3, 'paid', 300), (4, 'issued', 0)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, amount INTEGER)",
		"INSERT INTO orders VALUES (1, 'delivered', 100), (2, 'cancelled', 300)",
	}
	sum := func(table, rest string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"amount"}]},"alias":"total"}],"from":[{"table":"` + table + `","alias":"i"}]` + rest + `}`
	}
	for _, eng := range everyEngine(stmts) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			res := runAir(t, e, sum("invoices", ""))
			w := warningWith(res.Warnings, `invoices.status holds "void" for the rows voided or deleted in place`)
			_, fix, found := strings.Cut(w, "if they should not, add ")
			fix, _, _ = strings.Cut(fix, " to the filters")
			if fmt.Sprint(res.Rows) != "[[700]]" || !found {
				t.Fatalf("rows %v, warnings %q: want 700 and the void rows named with a filter", res.Rows, res.Warnings)
			}
			if got := fmt.Sprint(runAir(t, e, sum("invoices", `,"where":`+fix)).Rows); got != "[[400]]" {
				t.Errorf("the fix %s sums %s, want [[400]]", fix, got)
			}
			for _, quiet := range []string{
				sum("invoices", `,"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"i","column":"status"},"right":{"kind":"literal","value":"paid"}}`),
				sum("orders", ""),
			} {
				if w := warningWith(runAir(t, e, quiet).Warnings, "voided or deleted in place"); w != "" {
					t.Errorf("%s: warned %q", quiet, w)
				}
			}
		})
	}
}
