package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: plans that run and answer another question than the one
// they look like. COUNT(CASE WHEN paid THEN 1 ELSE 0 END) counts every
// order, not the paid ones; a WHERE on the orders of "customers LEFT JOIN
// orders" drops the customers without orders, so "every customer and
// their large orders" silently loses them. Each must be named, with its
// fix, at check time and at run time; the same questions written the
// right way (SUM, the condition in the join) must earn nothing.
func TestPlansThatAnswerAnotherQuestionAreNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), status TEXT, amount REAL)",
		"INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy')",
		"INSERT INTO orders VALUES (1, 1, 'paid', 10), (2, 1, 'open', 20), (3, 2, 'paid', 30)")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	paid := func(agg, elseV string) string {
		return `{"kind":"func","name":"` + agg + `","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"status"},"right":{"kind":"literal","value":"paid"}},"then":{"kind":"literal","value":1}}]` + elseV + `}]}`
	}
	counting := func(agg, elseV string) []byte {
		return []byte(`{"select":[{"expr":` + paid(agg, elseV) + `,"alias":"n"}],"from":[{"table":"orders","alias":"o"}]}`)
	}
	// COUNT(DISTINCT …): a label (every THEN a literal) is one value a
	// count of labels means; beside ids the ELSE is one too many
	distinct := func(then, elseV string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","distinct":true,"args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"status"},"right":{"kind":"literal","value":"paid"}},"then":` + then + `}]` + elseV + `}]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}]}`)
	}
	big := `{"kind":"binary","op":">","left":{"kind":"column","table":"o","column":"amount"},"right":{"kind":"literal","value":15}}`
	joined := func(cond, where string) []byte {
		p := `{"select":[{"expr":{"kind":"column","table":"c","column":"name"}},{"expr":{"kind":"column","table":"o","column":"amount"}}],` +
			`"from":[{"table":"customers","alias":"c"},{"table":"orders","alias":"o"}],"joins":[{"type":"left","left":"c","right":"o","on":[{"left_column":"id","right_column":"customer_id"}]` + cond + `}]`
		if where != "" {
			p += `,"where":` + where
		}
		return []byte(p + `,"order_by":[{"expr":{"kind":"column","table":"c","column":"name"}}]}`)
	}
	for _, c := range []struct {
		name string
		plan []byte
		rows string
		warn string // a part of the warning; "" for none of either kind
	}{
		{"COUNT over CASE ELSE 0", counting("COUNT", `,"else":{"kind":"literal","value":0}`), "[[3]]", "COUNT(CASE … ELSE 0 END) counts every row"},
		{"SUM over CASE ELSE 0", counting("SUM", `,"else":{"kind":"literal","value":0}`), "[[2]]", ""},
		{"COUNT over CASE without ELSE", counting("COUNT", ""), "[[2]]", ""},
		{"COUNT DISTINCT over labels with ELSE", distinct(`{"kind":"literal","value":"PAID"}`, `,"else":{"kind":"literal","value":"OTHER"}`), "[[2]]", ""},
		{"COUNT DISTINCT over ids with ELSE 0", distinct(`{"kind":"column","table":"o","column":"customer_id"}`, `,"else":{"kind":"literal","value":0}`), "[[3]]", "counts 0 as one more distinct value"},
		{"COUNT DISTINCT over ids without ELSE", distinct(`{"kind":"column","table":"o","column":"customer_id"}`, ""), "[[2]]", ""},
		{"WHERE on the left join's right side", joined("", big), "[[Ada 20] [Bo 30]]", "acts as an inner one"},
		{"the condition in the join", joined(`,"condition":`+big, ""), "[[Ada 20] [Bo 30] [Cy <nil>]]", ""},
		{"anti-join", joined("", `{"kind":"is_null","expr":{"kind":"column","table":"o","column":"id"}}`), "[[Cy <nil>]]", ""},
		// an OR whose other branch holds where the orders are NULL keeps
		// those customers: the outer join still means what it says
		{"an OR with a branch on the kept side", joined("", `{"kind":"binary","op":"or","left":`+big+`,"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"name"},"right":{"kind":"literal","value":"Cy"}}}`), "[[Ada 20] [Bo 30] [Cy <nil>]]", ""},
		{"an OR of two branches on the outer side", joined("", `{"kind":"binary","op":"or","left":`+big+`,"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"status"},"right":{"kind":"literal","value":"x"}}}`), "[[Ada 20] [Bo 30]]", "acts as an inner one"},
	} {
		res, err := e.RunPlan(ctx, "air", c.plan)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := fmt.Sprint(res.Rows); got != c.rows {
			t.Fatalf("%s: rows %s, want %s", c.name, got, c.rows)
		}
		check, err := e.CheckPlan(ctx, "air", c.plan, "")
		if err != nil {
			t.Fatal(err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			all := strings.Join(ws, "\n")
			if c.warn != "" && !strings.Contains(all, c.warn) {
				t.Errorf("%s (%s): warnings %q, want one saying %q", c.name, what, ws, c.warn)
			}
			if c.warn == "" && (strings.Contains(all, "counts every row") || strings.Contains(all, "one more distinct value") || strings.Contains(all, "acts as an inner one")) {
				t.Errorf("%s (%s): a plan that means what it says was warned: %q", c.name, what, ws)
			}
		}
	}
}
