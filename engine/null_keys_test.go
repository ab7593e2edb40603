package engine

import (
	"fmt"
	"strings"
	"testing"
)

// refundsDB holds refunds that name their order by id on some rows and by
// an order code on the others (the code on two of five), and couriers
// every order names.
var refundsDB = []string{
	"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, city TEXT)",
	"INSERT INTO orders VALUES (1, 'Berlin'), (2, 'Berlin'), (3, 'London'), (4, 'London'), (5, 'London')",
	"CREATE TABLE refunds (refund_id INTEGER PRIMARY KEY, order_id INTEGER, order_code TEXT, amount INTEGER)",
	"INSERT INTO refunds VALUES (1, 1, NULL, 10), (2, 3, NULL, 20), (3, 5, NULL, 30), (4, NULL, 'ORD-000002', 40), (5, NULL, 'ORD-000004', 50)",
	"CREATE TABLE referrals (id INTEGER PRIMARY KEY, order_id INTEGER, note TEXT)",
	"INSERT INTO referrals VALUES (1, 1, 'x'), (2, NULL, 'y'), (3, NULL, 'z')",
}

// The threat: refunds per city, joined to orders on order_id, summed 60
// of the 150 refunded, and nothing said that two of five refunds have no
// order_id (they name their order by a code): a NULL key meets no row,
// and an inner join drops the row. The warning names the key's NULL
// share and the column set where it is not, on every engine, in a check
// as in a run; the optional side of a left join is named too, while a
// left join from refunds keeps them (their NULLs are the answer's to
// show), the optional side of a left join whose NULLs no other column
// explains (orders nobody referred, of a list of referrals), and a key
// never NULL are told nothing.
func TestJoinKeysOftenNullAreNamed(t *testing.T) {
	plan := func(typ, left, right string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"r","column":"amount"}]},"alias":"refunded"}],` +
			`"from":[{"table":"` + left + `","alias":"` + left[:1] + `"},{"table":"` + right + `","alias":"` + right[:1] + `"}],` +
			`"joins":[{"type":"` + typ + `","left":"` + left[:1] + `","right":"` + right[:1] + `","on":[{"left_column":"order_id","right_column":"order_id"}]}]}`
	}
	const want = "r.order_id is NULL in 40% of refunds rows (profiled), and a NULL key meets no row"
	const other = "refunds.order_code is set about where order_id is not (60% NULL)"
	for _, eng := range everyEngine(refundsDB) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, c := range []struct {
				name, plan, total string
				warned            bool
			}{
				{"inner join", plan("inner", "refunds", "orders"), "[[60]]", true},
				{"left join from orders", plan("left", "orders", "refunds"), "[[60]]", true},
				{"left join from refunds", plan("left", "refunds", "orders"), "[[150]]", false},
			} {
				res := runAir(t, e, c.plan)
				if got := fmt.Sprint(res.Rows); got != c.total {
					t.Errorf("%s: %s, want %s", c.name, got, c.total)
				}
				w := warningWith(res.Warnings, "a NULL key meets no row")
				if c.warned != (strings.Contains(w, want) && strings.Contains(w, other)) || !c.warned && w != "" {
					t.Errorf("%s: warning %q, want one naming the NULL share and order_code: %v", c.name, w, c.warned)
				}
			}
			// the optional side's NULLs, with nothing naming their match
			// another way, are what the outer join means to leave out
			left := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"column","table":"r","column":"id"}]},"alias":"n"}],` +
				`"from":[{"table":"orders","alias":"o"},{"table":"referrals","alias":"r"}],` +
				`"joins":[{"type":"left","left":"o","right":"r","on":[{"left_column":"order_id","right_column":"order_id"}]}]}`
			if w := warningWith(runAir(t, e, left).Warnings, "a NULL key meets no row"); w != "" {
				t.Errorf("left join to referrals: warned %q", w)
			}
			pc, err := e.CheckPlan(t.Context(), "air", []byte(plan("inner", "refunds", "orders")), "")
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(pc.Warnings, "a NULL key meets no row"); !strings.Contains(w, want) {
				t.Errorf("check: warnings %q, want the NULL key named", pc.Warnings)
			}
		})
	}
}

// The threat: invoices converted to dollars through a monthly rate table
// that holds no USD row (dollars need no rate) lost every USD invoice in
// the inner join, and the sum per country came back without the United
// States, with nothing said. Both currency columns hold few values, all
// known: the run names the value the rates never hold, and the left join
// it advises keeps those rows; a rate table that holds every currency, and
// a left join, are told nothing.
func TestJoinKeysTheOtherSideNeverHoldsAreNamed(t *testing.T) {
	stmts := []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, currency TEXT, amount INTEGER)",
		"INSERT INTO invoices VALUES (1, 'EUR', 100), (2, 'GBP', 10), (3, 'USD', 50), (4, 'USD', 70)",
		"CREATE TABLE fx (currency TEXT PRIMARY KEY, rate INTEGER)",
		"INSERT INTO fx VALUES ('EUR', 2), ('GBP', 3)",
		"CREATE TABLE fx_all (currency TEXT PRIMARY KEY, rate INTEGER)",
		"INSERT INTO fx_all VALUES ('EUR', 2), ('GBP', 3), ('USD', 1)",
	}
	count := func(typ, rates string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"from":[{"table":"invoices","alias":"i"},{"table":"` + rates + `","alias":"x"}],` +
			`"joins":[{"type":"` + typ + `","left":"i","right":"x","on":[{"left_column":"currency","right_column":"currency"}]}]}`
	}
	const named = `joins[0]: i.currency holds "USD", which x.currency never holds: the inner join leaves out every invoices row holding it`
	for _, eng := range everyEngine(stmts) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			for _, c := range []struct {
				name, plan, rows string
				warned           bool
			}{
				{"inner join to rates lacking USD", count("inner", "fx"), "[[2]]", true},
				{"left join keeps them", count("left", "fx"), "[[4]]", false},
				{"rates of every currency", count("inner", "fx_all"), "[[4]]", false},
			} {
				res := runAir(t, e, c.plan)
				w := warningWith(res.Warnings, "never holds")
				if fmt.Sprint(res.Rows) != c.rows || c.warned != strings.Contains(w, named) || !c.warned && w != "" {
					t.Errorf("%s: rows %v, warnings %q; want %s and the USD rows named: %v", c.name, res.Rows, res.Warnings, c.rows, c.warned)
				}
			}
		})
	}
}

// The threat: "the average amount paid per order, tip included" as
// AVG(total + tip) over tips NULL where none was given averaged the
// tipped orders alone, with nothing said (31.61 where 31.41). The run
// names the term and the COALESCE that reads a missing tip as 0, which
// pasted gives the average over every order; a term never NULL, an
// average of the column alone (its NULLs are no value of it) and a plan
// that reads it through COALESCE are told nothing.
func TestNullTermOfASumIsNamed(t *testing.T) {
	stmts := []string{
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, total INTEGER, fee INTEGER, tip INTEGER)",
		"INSERT INTO orders VALUES (1, 10, 2, 4), (2, 20, 2, NULL), (3, 30, 2, NULL), (4, 40, 2, 2)",
	}
	col := func(c string) string { return `{"kind":"column","table":"o","column":"` + c + `"}` }
	plus := func(a, b string) string { return `{"kind":"binary","op":"+","left":` + a + `,"right":` + b + `}` }
	avg := func(x string) string {
		return `{"select":[{"expr":{"kind":"func","name":"AVG","args":[` + x + `]},"alias":"a"}],"from":[{"table":"orders","alias":"o"}]}`
	}
	const named = "is NULL wherever o.tip is (50% of its rows, profiled), and AVG leaves those rows out"
	for _, eng := range everyEngine(stmts) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			res := runAir(t, e, avg(plus(col("total"), plus(col("tip"), col("fee")))))
			w := warningWith(res.Warnings, named)
			_, fix, ok := strings.Cut(w, "read it as ")
			if !ok {
				t.Fatalf("warnings %q, want the tip named", res.Warnings)
			}
			if got := runAir(t, e, avg(plus(col("total"), plus(fix, col("fee"))))).Rows[0][0]; !near(got, 28.5) {
				t.Errorf("with %s the average is %v, want 28.5", fix, got)
			}
			for _, quiet := range []string{avg(plus(col("total"), col("fee"))), avg(col("tip")), avg(plus(col("total"), fix))} {
				if w := warningWith(runAir(t, e, quiet).Warnings, "leaves those rows out"); w != "" {
					t.Errorf("%s: warned %q", quiet, w)
				}
			}
		})
	}
}
