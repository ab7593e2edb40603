package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: two tables related by a code no foreign key declares
// (customers.code, orders.customer_code). Joined, each customer row
// repeats once per order, so SUM(c.credit) is inflated (2 orders of Ada
// count her credit twice) and the only warning said no foreign key
// joins them. The result must say the sum is inflated, as for a declared
// key; a join whose key is unique on the other side (each customer row
// meets one row) must not.
func TestUndeclaredJoinThatRepeatsRowsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, code TEXT, credit REAL)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_code TEXT, amount REAL)",
		"CREATE TABLE accounts (id INTEGER PRIMARY KEY, customer_code TEXT, iban TEXT)",
		"INSERT INTO customers VALUES (1, 'C001', 100), (2, 'C002', 50), (3, 'C003', 7)",
		"INSERT INTO orders VALUES (1, 'C001', 10), (2, 'C001', 20), (3, 'C002', 30)",
		"INSERT INTO accounts VALUES (1, 'C001', 'X1'), (2, 'C002', 'X2'), (3, 'C003', 'X3')")
	e := airEngine(t, db, nil)
	sum := func(other string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"c","column":"credit"}]},"alias":"total"}],` +
			`"from":[{"table":"customers","alias":"c"},{"table":"` + other + `","alias":"o"}],"joins":[{"type":"inner","left":"c","right":"o","on":[{"left_column":"code","right_column":"customer_code"}]}]}`)
	}
	for _, c := range []struct {
		other, total string
		named        bool
	}{
		{"orders", "[[250]]", true},
		{"accounts", "[[157]]", false},
	} {
		res, err := e.RunPlan(context.Background(), "air", sum(c.other))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Rows); got != c.total {
			t.Fatalf("%s: %s, want %s", c.other, got, c.total)
		}
		w := warningWith(res.Warnings, "inflated")
		if got := strings.Contains(w, "SUM(c.credit)") && strings.Contains(w, "several "+c.other+" rows share one join key value"); got != c.named {
			t.Errorf("join with %s: warnings %q, want the inflated sum named: %v", c.other, res.Warnings, c.named)
		}
	}
}
