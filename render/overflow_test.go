package render_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The threat: one plan, one database's rows, and a user who sees
// 10000000000 on SQLite, "integer out of range" on PostgreSQL and DuckDB
// (n is a 32-bit INTEGER column there); or 9.223372036854776e18 on SQLite
// where PostgreSQL and DuckDB fail; or a SUM that is a value on two
// engines and an error on the third. Every case below must give the same
// rows on all three engines, or the same ARITHMETIC_OVERFLOW.
func TestArithmeticHasOneRange(t *testing.T) {
	cat := memCatalog{table("o", []string{"id integer", "n integer", "big integer", "s text"})}
	rows := map[string][]string{"o": {
		`1, 100000, 9223372036854775807, '1e10'`,
		`2, -3, 4611686018427387904, '2.5'`,
		`3, NULL, NULL, NULL`,
	}}
	dbs := engines(t, cat, rows)
	for _, e := range dbs {
		if e.d.Name() != "sqlite" { // n is 32-bit where the engine has such a type
			if _, err := e.db.Exec(`ALTER TABLE "o" ALTER COLUMN "n" TYPE INTEGER`); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	n, big, id := column("n"), column("big"), column("id")
	dec := `{"kind":"cast","expr":` + column("s") + `,"type":"decimal"}`
	sel := func(es ...string) string {
		items := []string{`{"expr":` + id + `,"alias":"id"}`}
		for i, e := range es {
			items = append(items, `{"expr":`+e+`,"alias":"e`+string(rune('0'+i))+`"}`)
		}
		return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"o","alias":"o"}],"order_by":[{"expr":` + id + `}]}`
	}
	agg := func(e string) string {
		return `{"select":[{"expr":` + e + `,"alias":"a"}],"from":[{"table":"o","alias":"o"}]}`
	}
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	cases := []struct {
		name, plan string
		want       [][]string
	}{
		{"32-bit columns and literals widen to 64 bits", sel(binary("*", n, n), binary("*", n, num("100000")), `{"kind":"unary","op":"-","expr":`+n+`}`, binary("*", num("100000"), num("100000"))),
			[][]string{{"1", "10000000000", "10000000000", "-100000", "10000000000"}, {"2", "9", "-300000", "3", "10000000000"}, {"3", "NULL", "NULL", "NULL", "10000000000"}}},
		{"a sum of 32-bit products", agg(call("SUM", binary("*", n, n))), [][]string{{"10000000009"}}},
		{"in range near int64 stays exact", sel(binary("-", big, num("1")), binary("-", big, big)),
			[][]string{{"1", "9223372036854775806", "0"}, {"2", "4611686018427387903", "0"}, {"3", "NULL", "NULL"}}},
		{"beyond int64 fails everywhere", sel(binary("+", big, num("1"))), overflow},
		{"beyond int64 inside a function fails everywhere", sel(call("COALESCE", binary("*", big, num("2")), num("0"))), overflow},
		{"an overflow undone later in the chain still fails", sel(binary("-", binary("*", big, num("2")), big)), overflow},
		{"a sum beyond int64 fails everywhere", agg(call("SUM", big)), overflow},
		{"a product of two decimals beyond 10^18 fails everywhere", sel(binary("*", dec, dec)), overflow},
		{"an integer times a decimal beyond 10^28 fails everywhere", sel(binary("*", big, dec)), overflow},
		// DuckDB computes a product at the sum of its operands' scales and refuses a scale beyond 38
		{"decimal products of products keep their scale", strings.Replace(sel(binary("*", binary("*", dec, dec), binary("*", dec, dec))), `],"from"`, `],"where":`+binary("=", id, num("2"))+`,"from"`, 1),
			[][]string{{"2", "39.0625"}}},
	}
	for _, c := range cases {
		q, err := planast.Decode([]byte(c.plan), planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v, err := validate.Plan(q, cat, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, e := range dbs {
			s, err := render.SQL(v.Plan, e.d, render.Options{})
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, e.d.Name(), err)
			}
			got, err := queryAll(e.db, s)
			switch {
			case err != nil && overflowed(err):
				got = overflow
			case err != nil:
				t.Errorf("%s/%s: %v\n%s", c.name, e.d.Name(), err, s)
				continue
			}
			for _, row := range got {
				for j, x := range row {
					if strings.Contains(x, ".") { // a decimal's scale is not its value
						row[j] = strings.TrimSuffix(strings.TrimRight(x, "0"), ".")
					}
				}
			}
			if !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("%s/%s: got %v, want %v\n%s", c.name, e.d.Name(), got, c.want, s)
			}
		}
	}
}
