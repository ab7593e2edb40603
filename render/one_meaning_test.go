package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// Plans whose meaning differed by engine until the renderer fixed one: a
// scalar subquery with several rows, a SUBSTR length negative at run time.
// Each case runs on every engine and must give the one answer written in
// the case.

var oneCatalog = memCatalog{table("o", []string{"id integer", "g integer", "s text", "n integer"})}

var oneRows = map[string][]string{"o": {
	"1, 1, 'abcdef', -2", "2, 1, 'xyz', 3", "3, 2, 'hello world', -5", "4, 3, NULL, NULL", "5, 4, 'ab', 0",
}}

// severalRows is the outcome of a scalar subquery that returned more than
// one row: each engine's error names it (SQLite's through the renderer's
// check), and the adapters map it onto one typed error.
const severalRows = "ERROR: several rows"

// runOne renders the plan for every engine and runs it: the rows, or
// severalRows; any other error fails the test.
func runOne(t *testing.T, dbs []engineDB, cat memCatalog, name, plan string) map[string]string {
	t.Helper()
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		t.Fatalf("%s: validate: %v", name, err)
	}
	out := map[string]string{}
	for _, e := range dbs {
		s, err := render.SQL(v.Plan, e.d, render.Options{})
		if err != nil {
			t.Fatalf("%s/%s: %v", name, e.d.Name(), err)
		}
		got, err := queryAll(e.db, s)
		switch {
		case err != nil && strings.Contains(strings.ToLower(err.Error()), render.SeveralRowsMessage):
			out[e.d.Name()] = severalRows
		case err != nil:
			t.Errorf("%s/%s: %v\n%s", name, e.d.Name(), err, s)
		default:
			out[e.d.Name()] = fmt.Sprint(got)
		}
	}
	return out
}

func scalarSub(where string, extra string) string {
	return `{"kind":"subquery","query":{"select":[{"expr":{"kind":"column","table":"i","column":"id"},"alias":"v"}],"from":[{"table":"o","alias":"i"}],"where":` + where + extra + `}}`
}

func ocol(table, c string) string {
	return `{"kind":"column","table":"` + table + `","column":"` + c + `"}`
}

// A subquery used as a value that finds several rows failed the query on
// PostgreSQL and DuckDB and gave SQLite's first row in scan order, so the
// same plan answered on one engine what it refused on the others, and the
// SQLite answer depended on the order rows were stored in.
func TestScalarSubqueryRowsOneMeaning(t *testing.T) {
	dbs := engines(t, oneCatalog, oneRows)
	plan := func(sub string) string {
		return `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"},{"expr":` + sub + `,"alias":"x"}],"from":[{"table":"o","alias":"o"}],"order_by":[{"expr":` + ocol("o", "id") + `}]}`
	}
	cases := []struct{ name, plan, want string }{
		{"several rows, not correlated", plan(scalarSub(binary("=", ocol("i", "g"), num("1")), "")), severalRows},
		{"several rows for some outer rows", plan(scalarSub(binary("=", ocol("i", "g"), ocol("o", "g")), "")), severalRows},
		{"one row each", plan(scalarSub(binary("=", ocol("i", "id"), ocol("o", "id")), "")), "[[1 1] [2 2] [3 3] [4 4] [5 5]]"},
		{"no row is NULL", plan(scalarSub(binary("=", ocol("i", "id"), num("99")), "")), "[[1 NULL] [2 NULL] [3 NULL] [4 NULL] [5 NULL]]"},
		{"limit 1 picks one", plan(scalarSub(binary("=", ocol("i", "g"), ocol("o", "g")), `,"order_by":[{"expr":`+ocol("i", "id")+`,"direction":"desc"}],"limit":1`)), "[[1 2] [2 2] [3 3] [4 4] [5 5]]"},
		{"several rows in a filter", `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"}],"from":[{"table":"o","alias":"o"}],"where":` +
			binary("=", ocol("o", "id"), scalarSub(binary(">", ocol("i", "id"), num("3")), "")) + `}`, severalRows},
		{"one row in a filter", `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"}],"from":[{"table":"o","alias":"o"}],"where":` +
			binary("=", ocol("o", "id"), scalarSub(binary(">", ocol("i", "id"), num("4")), "")) + `}`, "[[5]]"},
	}
	for _, c := range cases {
		for name, got := range runOne(t, dbs, oneCatalog, c.name, c.plan) {
			if got != c.want {
				t.Errorf("%s/%s: %s, want %s", c.name, name, got, c.want)
			}
		}
	}
}

// substrRef is the plan's SUBSTR, SQLite's: a negative start counts from
// the end, a negative length takes the characters before the start.
func substrRef(s string, start, n int) string {
	r := []rune(s)
	p := start - 1 // 0-based position of the start; 0 is before the first character
	if start < 0 {
		p = len(r) + start
	}
	lo, hi := p, p+n
	if n < 0 {
		lo, hi = p+n, p
	}
	lo, hi = max(lo, 0), min(hi, len(r))
	if lo >= hi {
		return ""
	}
	return string(r[lo:hi])
}

// A SUBSTR whose length is negative at run time (a column, arithmetic)
// failed the whole query on PostgreSQL ("negative substring length not
// allowed") where SQLite and DuckDB took the characters before the start:
// a plan that answered on two engines lost every row on the third.
func TestSubstrNegativeLengthOneMeaning(t *testing.T) {
	dbs := engines(t, oneCatalog, oneRows)
	starts := []int{-8, -3, -1, 0, 1, 2, 4, 6, 7, 12}
	lengths := []int{-9, -4, -2, -1, 0, 2, 5}
	for _, st := range starts {
		for _, n := range lengths {
			// the length is computed, n + id - id, so no engine sees a literal
			length := binary("-", binary("+", num(fmt.Sprint(n)), ocol("o", "id")), ocol("o", "id"))
			start := binary("-", binary("+", num(fmt.Sprint(st)), ocol("o", "id")), ocol("o", "id"))
			plan := `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"},{"expr":` + call("SUBSTR", ocol("o", "s"), start, length) + `,"alias":"x"},` +
				`{"expr":` + call("SUBSTR", ocol("o", "s"), num(fmt.Sprint(max(st, 1))), length) + `,"alias":"y"}],` +
				`"from":[{"table":"o","alias":"o"}],"where":{"kind":"is_null","expr":` + ocol("o", "s") + `,"negated":true},"order_by":[{"expr":` + ocol("o", "id") + `}]}`
			var want []string
			for _, s := range []string{"abcdef", "xyz", "hello world", "ab"} {
				want = append(want, "["+fmt.Sprint(len(want)+1+map[bool]int{true: 1}[len(want) >= 3])+" "+substrRef(s, st, n)+" "+substrRef(s, max(st, 1), n)+"]")
			}
			name := fmt.Sprintf("SUBSTR(s, %d, %d)", st, n)
			for eng, got := range runOne(t, dbs, oneCatalog, name, plan) {
				if w := "[" + strings.Join(want, " ") + "]"; got != w {
					t.Errorf("%s/%s: %s, want %s", name, eng, got, w)
				}
			}
		}
	}
}

// A price of 19.99 times 100, cast to integer, is 1999 on every engine:
// SQLite's decimals are doubles (1998.9999999999998), which a plain cast
// truncated to 1998 where PostgreSQL and DuckDB gave 1999. A float is
// truncated as the double it is everywhere (DuckDB's integer cast rounded
// it through a decimal first: 28.999999999999996 became 29).
func TestCastToIntegerOfDecimalsAndFloatsOneMeaning(t *testing.T) {
	cat := memCatalog{table("p", []string{"id integer", "price decimal", "f float"})}
	rows := map[string][]string{"p": {"1, 19.99, 0.29", "2, 0.29, 1.15", "3, 1.15, -0.29", "4, -19.99, 19.99"}}
	dbs := engines(t, cat, rows)
	times := func(col string) string {
		return `{"kind":"cast","type":"integer","expr":{"kind":"binary","op":"*","left":` + column(col) + `,"right":{"kind":"literal","value":100}}}`
	}
	plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"},{"expr":` + times("price") + `,"alias":"cents"},{"expr":` + times("f") + `,"alias":"fcents"}],` +
		`"from":[{"table":"p","alias":"p"}],"order_by":[{"expr":` + column("id") + `}]}`
	want := "[[1 1999 28] [2 29 114] [3 115 -28] [4 -1999 1998]]"
	for name, got := range runOne(t, dbs, cat, "cast to integer", plan) {
		if got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}
