package render_test

import (
	"strconv"
	"strings"
	"testing"
)

// A sum of money beside a finer decimal in one result (a union, a CASE, a
// COALESCE, LAG's default) must keep every decimal of both: DuckDB types
// a SUM as DECIMAL(38,s) and gave the result that type, so 0.12345 beside
// a sum of DECIMAL(18,4) came back as 0.1235 there and as 0.12345 on the
// other engines, with nothing said.
func TestDecimalBranchesKeepEveryDecimal(t *testing.T) {
	cat := memCatalog{table("r", []string{"id integer", "d decimal"})}
	dbs := engines(t, cat, map[string][]string{"r": {"1, 1.25", "2, 2.5"}})
	fine := num("0.12345")
	sum := call("SUM", column("d"))
	from := `"from":[{"table":"r","alias":"r"}]`
	sums := `{"kind":"subquery","query":{"select":[{"expr":` + column("id") + `,"alias":"id"},{"expr":` + sum + `,"alias":"s"}],` + from + `,"group_by":[` + column("id") + `]}}`
	cases := []struct{ name, plan, want string }{
		{"union", `{"select":[{"expr":` + sum + `,"alias":"v"}],` + from + `,"set_ops":[{"op":"union_all","query":{"select":[{"expr":` + fine + `,"alias":"v"}]}}],"order_by":[{"expr":` + column("v") + `}]}`,
			"0.12345 3.75"},
		{"case", `{"select":[{"expr":{"kind":"case","whens":[{"when":` + binary(">", call("COUNT"), num("100")) + `,"then":` + sum + `}],"else":` + fine + `},"alias":"v"}],` + from + `}`,
			"0.12345"},
		{"coalesce", `{"select":[{"expr":` + call("COALESCE", sum, fine) + `,"alias":"v"}],` + from + `,"where":` + binary(">", column("id"), num("5")) + `}`,
			"0.12345"},
		{"lag default", `{"select":[{"expr":{"kind":"window","name":"LAG","args":[` + ocol("x", "s") + `,` + num("1") + `,` + fine + `],"order_by":[{"expr":` + ocol("x", "id") + `}]},"alias":"v"}],` +
			`"from":[{"subquery":` + strings.TrimSuffix(strings.TrimPrefix(sums, `{"kind":"subquery","query":`), `}`) + `,"alias":"x"}],"order_by":[{"expr":` + ocol("x", "id") + `}]}`,
			"0.12345 1.25"},
		// finer than the renderer's own ten decimals: a literal of twelve
		{"union of twelve decimals", `{"select":[{"expr":` + sum + `,"alias":"v"}],` + from + `,"set_ops":[{"op":"union_all","query":{"select":[{"expr":` + num("0.123456789012") + `,"alias":"v"}]}}],"order_by":[{"expr":` + column("v") + `}]}`,
			"0.123456789012 3.75"},
	}
	for _, c := range cases {
		for name, got := range runOne(t, dbs, cat, c.name, c.plan) {
			var vals []string
			for _, f := range strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(got)) {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					t.Fatalf("%s/%s: %q in %s", c.name, name, f, got)
				}
				vals = append(vals, strconv.FormatFloat(v, 'f', -1, 64))
			}
			if strings.Join(vals, " ") != c.want {
				t.Errorf("%s on %s: %s, want %s", c.name, name, got, c.want)
			}
		}
	}
}
