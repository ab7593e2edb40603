package planast_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A float or decimal cast to text printed differently per engine: 2.0 was
// '2.0' on SQLite and DuckDB and '2' on PostgreSQL, so a label, a CONCAT or
// a comparison of such text changed with the engine the plan ran on. Such
// casts, explicit or needed by a text argument, are refused with a hint
// whose JSON pastes into the plan and validates; integers print the same
// everywhere and stay allowed.
func TestNumberToTextOneMeaning(t *testing.T) {
	cast := func(e string) string { return `{"kind":"cast","expr":` + e + `,"type":"text"}` }
	lines := frm(from("InvoiceLine", "il"))
	cases := []struct {
		name, expr string
		refused    bool
	}{
		{"decimal column", cast(c("il", "UnitPrice")), true},
		{"float average", cast(fn("AVG", c("il", "Quantity"))), true},
		{"float literal", cast(lit("2.5")), true},
		{"decimal product", cast(bin("*", c("il", "UnitPrice"), c("il", "Quantity"))), true},
		{"decimal in CONCAT", fn("CONCAT", `{"kind":"literal","value":"$"}`, c("il", "UnitPrice")), true},
		{"decimal in like", `{"kind":"like","expr":` + c("il", "UnitPrice") + `,"pattern":{"kind":"literal","value":"0.9%"}}`, true},
		{"integer column", cast(c("il", "Quantity")), false},
		{"integer in CONCAT", fn("CONCAT", `{"kind":"literal","value":"x"}`, cast(c("il", "Quantity"))), false},
		{"NULL", cast(`{"kind":"literal","value":null}`), false},
	}
	for _, tc := range cases {
		p := plan(sel(item(tc.expr, "x")), lines)
		q, err := planast.Decode([]byte(p), planast.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = validate.Plan(q, chinook, validate.Options{})
		if !tc.refused {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		is := issues(t, err)
		if len(is) != 1 || is[0].Code != planast.CodeType || !strings.Contains(is[0].Hint, `"ROUND"`) {
			t.Errorf("%s: %v, want one %s with the ROUND hint", tc.name, is, planast.CodeType)
			continue
		}
		// the hint's JSON is an expression that takes the refused one's place
		fix := is[0].Hint[strings.Index(is[0].Hint, "{"):]
		if !json.Valid([]byte(fix)) {
			t.Errorf("%s: hint JSON does not parse: %s", tc.name, fix)
			continue
		}
		if q, err = planast.Decode([]byte(plan(sel(item(fix, "x")), lines)), planast.Limits{}); err == nil {
			_, err = validate.Plan(q, chinook, validate.Options{})
		}
		if err != nil {
			t.Errorf("%s: the hint's expression %s is refused: %v", tc.name, fix, err)
		}
	}
}
