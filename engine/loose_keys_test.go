package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// shopDB holds order keys typed by hand: some carry stray spaces or other
// letter case than the customer codes they mean, and a return has no
// order id.
func shopDB(t *testing.T) string {
	return sourcetest.TempDB(t,
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, code TEXT, name TEXT)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_code TEXT, amount REAL)",
		"CREATE TABLE returns (id INTEGER PRIMARY KEY, order_id INTEGER)",
		"INSERT INTO customers VALUES (1, 'C001', 'Ada'), (2, 'C002', 'Bo'), (3, 'C003', 'Cy'), (4, 'C004', 'Di')",
		"INSERT INTO orders VALUES (1, 'C001', 10), (2, 'c001', 20), (3, 'C002', 30), (4, 'C004 ', 40), (5, ' C004', 50), (6, 'C999', 60)",
		"INSERT INTO returns VALUES (1, 1), (2, NULL)")
}

// The threat: keys typed by hand ('C004 ', 'c001') against customer codes
// ('C004', 'C001') pair some rows and silently lose the others. The join
// returns plausible totals, the anti-join lists customers who do have
// orders as having none, NOT IN keeps them, IN leaves them out: each looks
// right and is not. Every such result must name the keys that match only
// loosely, and the condition it gives must pair the lost rows. Keys that
// all match exactly earn nothing.
func TestKeysThatMatchOnlyLooselyAreNamed(t *testing.T) {
	e := airEngine(t, shopDB(t), nil)
	ctx := context.Background()
	join := func(typ string) string {
		return `"from":[{"table":"customers","alias":"c"},{"table":"orders","alias":"o"}],"joins":[{"type":"` + typ + `","left":"c","right":"o","on":[{"left_column":"code","right_column":"customer_code"}]}]`
	}
	code := `{"kind":"column","table":"c","column":"code"}`
	sub := `{"select":[{"expr":{"kind":"column","table":"o","column":"customer_code"}}],"from":[{"table":"orders","alias":"o"}]}`
	correlated := `{"select":[{"expr":{"kind":"column","table":"o","column":"id"}}],"from":[{"table":"orders","alias":"o"}],` +
		`"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"customer_code"},"right":` + code + `}}`
	for _, c := range []struct {
		name, plan string
		rows       int
	}{
		{"inner join", `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"o","column":"amount"}]},"alias":"total"}],` + join("inner") + `}`, 1},
		{"anti-join", `{"select":[{"expr":` + code + `}],` + join("left") + `,"where":{"kind":"is_null","expr":{"kind":"column","table":"o","column":"id"}}}`, 2},
		{"not in", `{"select":[{"expr":` + code + `}],"from":[{"table":"customers","alias":"c"}],"where":{"kind":"in","negated":true,"expr":` + code + `,"subquery":` + sub + `}}`, 2},
		{"in", `{"select":[{"expr":` + code + `}],"from":[{"table":"customers","alias":"c"}],"where":{"kind":"in","expr":` + code + `,"subquery":` + sub + `}}`, 2},
		// the subquery compares its key with a column of the enclosing query
		{"not exists", `{"select":[{"expr":` + code + `}],"from":[{"table":"customers","alias":"c"}],"where":{"kind":"exists","negated":true,"subquery":` + correlated + `}}`, 2},
	} {
		res, err := e.RunPlan(ctx, "air", []byte(c.plan))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Rows) != c.rows {
			t.Fatalf("%s: rows %v, want %d (the exact comparison's answer)", c.name, res.Rows, c.rows)
		}
		w := warningWith(res.Warnings, looselyOnly)
		if !strings.Contains(w, `3 stored values of "customer_code"`) || !strings.Contains(w, `"C004 "`) && !strings.Contains(w, `"c001"`) && !strings.Contains(w, `" C004"`) {
			t.Errorf("%s: warnings %q, want the 3 loose keys named with a spelling", c.name, res.Warnings)
		}
		if strings.HasPrefix(w, "no rows matched") {
			t.Errorf("%s: a result with rows is called empty: %q", c.name, w)
		}
	}

	// the join condition the warning gives pairs every order of a known customer
	res, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],`+join("inner")+`}`))
	if err != nil {
		t.Fatal(err)
	}
	w := warningWith(res.Warnings, looselyOnly)
	cond := w[strings.Index(w, `"condition": `)+len(`"condition": `) : strings.LastIndex(w, "}")+1]
	fixed, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"customers","alias":"c"},{"table":"orders","alias":"o"}],"joins":[{"type":"inner","left":"c","right":"o","on":[],"condition":`+cond+`}]}`))
	if err != nil {
		t.Fatalf("the warning's condition does not run: %v\n%s", err, cond)
	}
	if res.Rows[0][0] != int64(2) || fixed.Rows[0][0] != int64(5) {
		t.Errorf("exact join %v, the warning's condition %v: want 2 and 5 orders paired", res.Rows, fixed.Rows)
	}

	// the condition the correlated warning gives, in the subquery, finds
	// every customer's orders: only C003 has none
	notExists := func(cond string) []byte {
		return []byte(`{"select":[{"expr":` + code + `}],"from":[{"table":"customers","alias":"c"}],"where":{"kind":"exists","negated":true,"subquery":` +
			`{"select":[{"expr":{"kind":"column","table":"o","column":"id"}}],"from":[{"table":"orders","alias":"o"}],"where":` + cond + `}}}`)
	}
	res, err = e.RunPlan(ctx, "air", notExists(`{"kind":"binary","op":"=","left":{"kind":"column","table":"o","column":"customer_code"},"right":`+code+`}`))
	if err != nil {
		t.Fatal(err)
	}
	w = warningWith(res.Warnings, looselyOnly)
	cond = strings.TrimSuffix(w[strings.Index(w, "compare {")+len("compare "):], " in the subquery instead")
	fixed, err = e.RunPlan(ctx, "air", notExists(cond))
	if err != nil {
		t.Fatalf("the warning's condition does not run: %v\n%s", err, cond)
	}
	if len(fixed.Rows) != 1 || fixed.Rows[0][0] != "C003" {
		t.Errorf("NOT EXISTS with the warning's condition: %v, want only C003", fixed.Rows)
	}

	// keys that all match exactly earn nothing
	res, err = e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"name"}}],"from":[{"table":"customers","alias":"c"},{"table":"customers","alias":"d"}],"joins":[{"type":"inner","left":"c","right":"d","on":[{"left_column":"code","right_column":"code"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, looselyOnly); w != "" {
		t.Errorf("keys that match exactly got a warning: %q", w)
	}
}

// The threat: NOT IN over a list holding a NULL is never true, so "orders
// not returned" is 0 while NOT EXISTS gives 5; the old warning blamed
// only the NULLs of the operand, a small share. The result must say the
// filter keeps no row, and why; a subquery that excludes its NULLs, and a
// list without one, must not be blamed.
func TestNotInOverANullIsNamed(t *testing.T) {
	e := airEngine(t, shopDB(t), nil)
	ctx := context.Background()
	count := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}],"where":` + where + `}`)
	}
	id := `{"kind":"column","table":"o","column":"id"}`
	rid := `{"kind":"column","table":"r","column":"order_id"}`
	for _, c := range []struct {
		name, where string
		n           int64
		named       bool
	}{
		{"subquery with a NULL", `{"kind":"in","negated":true,"expr":` + id + `,"subquery":{"select":[{"expr":` + rid + `}],"from":[{"table":"returns","alias":"r"}]}}`, 0, true},
		{"list with a NULL", `{"kind":"in","negated":true,"expr":` + id + `,"list":[{"kind":"literal","value":1},{"kind":"literal","value":null}]}`, 0, true},
		{"subquery without its NULLs", `{"kind":"in","negated":true,"expr":` + id + `,"subquery":{"select":[{"expr":` + rid + `}],"from":[{"table":"returns","alias":"r"}],"where":{"kind":"is_null","negated":true,"expr":` + rid + `}}}`, 5, false},
		{"list without a NULL", `{"kind":"in","negated":true,"expr":` + id + `,"list":[{"kind":"literal","value":1}]}`, 5, false},
	} {
		res, err := e.RunPlan(ctx, "air", count(c.where))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Rows[0][0] != c.n {
			t.Fatalf("%s: %v, want %d", c.name, res.Rows, c.n)
		}
		if got := warningWith(res.Warnings, "keeps no row") != ""; got != c.named {
			t.Errorf("%s: warnings %q, want NOT IN's NULL named: %v", c.name, res.Warnings, c.named)
		}
		// a host that checks before it runs trusts the check's silence
		check, err := e.CheckPlan(ctx, "air", count(c.where), "")
		if err != nil {
			t.Fatalf("%s: check: %v", c.name, err)
		}
		if got := warningWith(check.Warnings, "keeps no row") != ""; got != c.named {
			t.Errorf("%s: check_plan warnings %q, want NOT IN's NULL named: %v", c.name, check.Warnings, c.named)
		}
	}
}
