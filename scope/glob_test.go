package scope

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "", true},
		{"*", "anything", true},
		{"Customer", "customer", true},
		{"customer", "CUSTOMER", true},
		{"Customer", "Customers", false},
		{"Cust*", "Customer", true},
		{"*mer", "Customer", true},
		{"*tom*", "Customer", true},
		{"C?stomer", "Customer", true},
		{"C?stomer", "Cstomer", false},
		{"??", "ab", true},
		{"??", "abc", false},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"a**", "a", true},
		{"", "", true},
		{"", "x", false},
		{"[ab]", "a", false}, // brackets are literal
		{"[ab]", "[AB]", true},
		{"a.b", "a.b", true}, // dots inside a part are literal
		{"Ünïcode", "üNÏCODE", true},
		{"?", "é", true}, // one character, not one byte
		{"\xff", "\xfe", false},
		{"\xff", "\xff", true},
	}
	for _, tt := range tests {
		if got := glob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("glob(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// A pathological pattern stays fast: one backtrack point at a time.
func TestGlobLinear(t *testing.T) {
	p := strings.Repeat("*a", 50) + "b"
	n := strings.Repeat("a", 5000)
	start := time.Now()
	if glob(p, n) {
		t.Fatal("matched")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
}

func TestPatternParts(t *testing.T) {
	ds := parsePattern("chinook")
	all := parsePattern("*")
	tbl := parsePattern("chinook.main.Customer")
	col := parsePattern("chinook.main.Customer.Email")
	anyT := parsePattern("chinook.*.*")
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"ds covers table", ds.table("chinook", "main", "Employee"), true},
		{"ds other ds", ds.table("shop", "main", "Employee"), false},
		{"star covers everything", all.col("shop", "public", "t", "c"), true},
		{"table", tbl.table("chinook", "MAIN", "customer"), true},
		{"table other schema", tbl.table("chinook", "other", "Customer"), false},
		{"table covers its columns", tbl.col("chinook", "main", "Customer", "Email"), true},
		{"column pattern is not a table", col.table("chinook", "main", "Customer"), false},
		{"column pattern names its table", col.tableOf("chinook", "main", "Customer"), true},
		{"column pattern column", col.col("chinook", "main", "Customer", "email"), true},
		{"column pattern other column", col.col("chinook", "main", "Customer", "Phone"), false},
		{"whole ds", anyT.wholeDatasource("chinook"), true},
		{"table is not whole ds", tbl.wholeDatasource("chinook"), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v", tt.name, tt.got)
		}
	}
}

func TestParseFilter(t *testing.T) {
	tests := []struct {
		where string
		want  string // the plan expression's canonical JSON, bound with employee_id=3, region="west"
	}{
		{"SupportRepId = :employee_id", `{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"SupportRepId"},"right":{"kind":"literal","type":"integer","value":3}}`},
		{"order != :employee_id", `{"kind":"binary","op":"!=","left":{"kind":"column","table":"T","column":"order"},"right":{"kind":"literal","type":"integer","value":3}}`}, // a reserved word is a column here
		{"T.SupportRepId <> 4", `{"kind":"binary","op":"!=","left":{"kind":"column","table":"T","column":"SupportRepId"},"right":{"kind":"literal","type":"integer","value":4}}`},
		{`"Bill ""x""" >= -1.5 and Region = :region`, `{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"T","column":"Bill \"x\""},"right":{"kind":"literal","type":"decimal","value":"-1.5"}},"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"Region"},"right":{"kind":"literal","type":"string","value":"west"}}}`},
		{"a = 1 OR b = 2 AND NOT c IS NULL", `{"kind":"binary","op":"or","left":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"a"},"right":{"kind":"literal","type":"integer","value":1}},"right":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"b"},"right":{"kind":"literal","type":"integer","value":2}},"right":{"kind":"unary","op":"not","expr":{"kind":"is_null","expr":{"kind":"column","table":"T","column":"c"}}}}}`},
		{"(a = 1 or b = 2) and c", `{"kind":"binary","op":"and","left":{"kind":"binary","op":"or","left":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"a"},"right":{"kind":"literal","type":"integer","value":1}},"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"b"},"right":{"kind":"literal","type":"integer","value":2}}},"right":{"kind":"column","table":"T","column":"c"}}`},
		{"x not in ('a', 'b''c')", `{"kind":"in","expr":{"kind":"column","table":"T","column":"x"},"list":[{"kind":"literal","type":"string","value":"a"},{"kind":"literal","type":"string","value":"b'c"}],"negated":true}`},
		{"x between 1 and :employee_id", `{"kind":"between","expr":{"kind":"column","table":"T","column":"x"},"low":{"kind":"literal","type":"integer","value":1},"high":{"kind":"literal","type":"integer","value":3}}`},
		{"x NOT LIKE 'a%' AND y is not null AND z = true", `{"kind":"binary","op":"and","left":{"kind":"binary","op":"and","left":{"kind":"like","expr":{"kind":"column","table":"T","column":"x"},"pattern":{"kind":"literal","type":"string","value":"a%"},"negated":true},"right":{"kind":"is_null","expr":{"kind":"column","table":"T","column":"y"},"negated":true}},"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"T","column":"z"},"right":{"kind":"literal","type":"boolean","value":true}}}`},
	}
	sc := &Scope{attrs: map[string]any{"employee_id": 3, "region": "west"}}
	for _, tt := range tests {
		e, err := parseFilter(tt.where, "T")
		if err != nil {
			t.Errorf("%s: %v", tt.where, err)
			continue
		}
		pe, err := Filter{expr: e}.Expr(sc, "T")
		if err != nil {
			t.Errorf("%s: %v", tt.where, err)
			continue
		}
		got := exprJSON(t, pe)
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.where, got, tt.want)
		}
	}
}

func TestParseFilterErrors(t *testing.T) {
	tests := []struct{ where, want string }{
		{"", "expected a column"},
		{"a =", "expected a column"},
		{"a = 1 b", `unexpected "b"`},
		{"lower(a) = 'x'", "functions are not supported"},
		{"a = (select 1)", `unexpected "1" at byte 12`},
		{"Other.a = 1", "another table"},
		{"a = 'open", "unterminated"},
		{"a = : x", "parameter is :name"},
		{"a = 1; drop table t", `unexpected ";"`},
		{"a not = 1", `unexpected "not" at byte 2`},
		{"a is 1", `unexpected "1" at byte 5`},
		{"a in 1", `unexpected "1" at byte 5`},
		{"a = 1.2.3", `unexpected ".3" at byte 7`},
		{"a = 99999999999999999999", "not a 64-bit integer"},
		{"a + 1 = 2", `unexpected "+"`},
		{"a = 1 -- x", `unexpected "-- x"`},
		{"a = 0x1F", "not a number"},
		{"a = 1::int", `unexpected "::"`},
		{"a = E'x'", `unexpected "E'x'"`},
		{"a ilike 'x'", `unexpected "ilike"`},
		{"a is true", "expected a column"},
		{"a = -b", "expected a column"},
		{"a.b.c = 1", "a column is name or table.name"},
	}
	for _, tt := range tests {
		_, err := parseFilter(tt.where, "T")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseFilter(%q) = %v, want an error with %q", tt.where, err, tt.want)
		}
	}
}

func TestFilterNeedsAttribute(t *testing.T) {
	e, err := parseFilter("a = :missing", "T")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Filter{expr: e}).Expr(&Scope{}, "T"); err == nil || !strings.Contains(err.Error(), `"missing"`) {
		t.Errorf("err = %v", err)
	}
}

// exprJSON is an expression's canonical JSON.
func exprJSON(t *testing.T, e planast.Expr) string {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
