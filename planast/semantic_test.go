package planast_test

import (
	"encoding/json"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// defs is a planast.Definitions over fixed expressions.
type defs map[string]planast.Definition

func (d defs) Metric(name string) (planast.Definition, bool) {
	x, ok := d["metric:"+name]
	return x, ok
}
func (d defs) Filter(name string) (planast.Definition, bool) {
	x, ok := d["filter:"+name]
	return x, ok
}

func mustExpr(t *testing.T, s string) planast.Expr {
	t.Helper()
	e, err := planast.DecodeExpr([]byte(s), planast.Limits{})
	if err != nil {
		t.Fatalf("DecodeExpr(%s): %v", s, err)
	}
	return e
}

func TestExpand(t *testing.T) {
	d := defs{
		"metric:revenue": {Table: "InvoiceLine", Expr: mustExpr(t, `{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*",
			"left":{"kind":"column","column":"UnitPrice"},"right":{"kind":"column","table":"InvoiceLine","column":"Quantity"}}]}`)},
		"filter:usa": {Table: "Customer", Expr: mustExpr(t, `{"kind":"binary","op":"=","left":{"kind":"column","column":"Country"},
			"right":{"kind":"literal","value":"USA"}}`)},
		// two tables: what US customers paid minus what the rest paid
		"metric:usa_margin": {Table: "InvoiceLine", Joins: []planast.TableRef{{Table: "Customer"}}, Expr: mustExpr(t, `{"kind":"func","name":"SUM","args":[
			{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"Customer","column":"Country"},"right":{"kind":"literal","value":"USA"}},
			"then":{"kind":"column","column":"UnitPrice"}}],"else":{"kind":"unary","op":"-","expr":{"kind":"column","table":"InvoiceLine","column":"UnitPrice"}}}]}`)},
	}
	const from = `"from":[{"table":"InvoiceLine","alias":"il"},{"table":"Invoice","alias":"i"},{"table":"Customer","alias":"c"}],
		"joins":[{"left":"il","right":"i","on":[{"left_column":"InvoiceId","right_column":"InvoiceId"}]},
		         {"left":"i","right":"c","on":[{"left_column":"CustomerId","right_column":"CustomerId"}]}]`
	cases := []struct {
		name, plan string
		wantSelect string // canonical JSON of select[0].expr after expansion
		wantUsed   []planast.Used
		wantCode   planast.Code
	}{
		{name: "metric and filter by alias",
			plan:       `{"select":[{"expr":{"kind":"metric","name":"revenue","table":"il"},"alias":"r"}],` + from + `,"where":{"kind":"filter","name":"usa","table":"c"}}`,
			wantSelect: `{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*","left":{"kind":"column","table":"il","column":"UnitPrice"},"right":{"kind":"column","table":"il","column":"Quantity"}}]}`,
			wantUsed:   []planast.Used{{Kind: "metric", Name: "revenue"}, {Kind: "filter", Name: "usa"}}},
		{name: "alias inferred, used once",
			plan:       `{"select":[{"expr":{"kind":"metric","name":"revenue"},"alias":"r"},{"expr":{"kind":"binary","op":"*","left":{"kind":"metric","name":"revenue"},"right":{"kind":"literal","value":2}},"alias":"r2"}],` + from + `}`,
			wantSelect: `{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*","left":{"kind":"column","table":"il","column":"UnitPrice"},"right":{"kind":"column","table":"il","column":"Quantity"}}]}`,
			wantUsed:   []planast.Used{{Kind: "metric", Name: "revenue"}}},
		{name: "metric over two tables",
			plan:       `{"select":[{"expr":{"kind":"metric","name":"usa_margin"},"alias":"m"}],` + from + `}`,
			wantSelect: `{"kind":"func","name":"SUM","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"Country"},"right":{"kind":"literal","type":"string","value":"USA"}},"then":{"kind":"column","table":"il","column":"UnitPrice"}}],"else":{"kind":"unary","op":"-","expr":{"kind":"column","table":"il","column":"UnitPrice"}}}]}`,
			wantUsed:   []planast.Used{{Kind: "metric", Name: "usa_margin"}}},
		{name: "metric's second table not in from", plan: `{"select":[{"expr":{"kind":"metric","name":"usa_margin"},"alias":"m"}],"from":[{"table":"InvoiceLine","alias":"il"}]}`, wantCode: planast.CodeAliasNotFound},
		{name: "unknown metric", plan: `{"select":[{"expr":{"kind":"metric","name":"profit"},"alias":"r"}],` + from + `}`, wantCode: planast.CodeBadValue},
		{name: "alias reads another table", plan: `{"select":[{"expr":{"kind":"metric","name":"revenue","table":"c"},"alias":"r"}],` + from + `}`, wantCode: planast.CodeAliasNotFound},
		{name: "table not in from", plan: `{"select":[{"expr":{"kind":"metric","name":"revenue"},"alias":"r"}],"from":[{"table":"Customer","alias":"c"}]}`, wantCode: planast.CodeAliasNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := decode(t, tc.plan)
			before, _ := json.Marshal(q)
			got, used, err := planast.Expand(q, d)
			if after, _ := json.Marshal(q); string(after) != string(before) {
				t.Errorf("Expand changed its input")
			}
			if tc.wantCode != "" {
				if is := issues(t, err); is[0].Code != tc.wantCode {
					t.Fatalf("code %s, want %s (%v)", is[0].Code, tc.wantCode, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(got.Select[0].Expr); string(b) != tc.wantSelect {
				t.Errorf("select[0] = %s\nwant %s", b, tc.wantSelect)
			}
			if b, _ := json.Marshal(used); string(b) != mustJSON(tc.wantUsed) {
				t.Errorf("used %s, want %s", b, mustJSON(tc.wantUsed))
			}
			if _, err := validate.Plan(got, chinook, validate.Options{Joins: validate.JoinDeclared}); err != nil {
				t.Errorf("expanded plan does not validate: %v", err)
			}
		})
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestReferencesRoundTripAndRefusedUnexpanded(t *testing.T) {
	q := decode(t, `{"select":[{"expr":{"kind":"metric","name":"revenue","table":"il"},"alias":"r"}],"from":[{"table":"InvoiceLine","alias":"il"}],
		"where":{"kind":"filter","name":"big"}}`)
	b, _ := json.Marshal(q)
	want := `{"select":[{"expr":{"kind":"metric","name":"revenue","table":"il"},"alias":"r"}],"from":[{"table":"InvoiceLine","alias":"il"}],"where":{"kind":"filter","name":"big"}}`
	if string(b) != want {
		t.Errorf("encoded %s\nwant    %s", b, want)
	}
	var kinds []string
	planast.Inspect(q, func(n planast.Node) bool {
		if e, ok := n.(planast.Expr); ok {
			kinds = append(kinds, e.Kind())
		}
		return true
	})
	if mustJSON(kinds) != `["metric","filter"]` {
		t.Errorf("Inspect visited %v", kinds)
	}
	if is := issues(t, func() error { _, err := validate.Plan(q, chinook, validate.Options{}); return err }()); is[0].Code != planast.CodeBadValue {
		t.Errorf("unexpanded reference: %v", is)
	}
	if _, _, err := planast.Expand(q, nil); err == nil {
		t.Error("Expand without definitions accepted a reference")
	}
	if same, used, err := planast.Expand(decode(t, `{"select":[{"expr":{"kind":"literal","value":1},"alias":"x"}]}`), nil); err != nil || used != nil || same == nil {
		t.Errorf("plan without references: %v %v", used, err)
	}
}
