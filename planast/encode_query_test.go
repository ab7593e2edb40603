package planast

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodingMatchesReflection checks Query.MarshalJSON against what
// encoding/json writes for the struct and its nodes' methods, at q and at
// every query inside it (so each level is compared with the reference for
// that level: the reference writes the queries nested in one level with
// MarshalJSON, which their own comparison covers).
func encodingMatchesReflection(t *testing.T, name string, q *Query) {
	t.Helper()
	Inspect(q, func(n Node) bool {
		sub, ok := n.(*Query)
		if !ok {
			return true
		}
		raw, err := sub.MarshalJSON()
		var esc bytes.Buffer
		json.HTMLEscape(&esc, raw)
		got := esc.Bytes()
		want, werr := json.Marshal((*plainQuery)(sub))
		if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: MarshalJSON wrote\n%s (%v)\nencoding/json writes\n%s (%v)", name, got, err, want, werr)
		}
		// compact already: json.Marshal and Canonical agree, and JSON
		// writes the same with < > & as themselves
		if m, _ := json.Marshal(sub); !bytes.Equal(m, got) || !bytes.Equal(sub.Canonical(), got) {
			t.Fatalf("%s: json.Marshal wrote\n%s\nCanonical\n%s\nMarshalJSON\n%s", name, m, sub.Canonical(), got)
		}
		if j, _ := JSON(sub); !bytes.Equal(j, raw) || bytes.Contains(j, []byte(`\u003e`)) {
			t.Fatalf("%s: JSON wrote\n%s\nMarshalJSON\n%s", name, j, raw)
		}
		return true
	})
}

func TestQueryEncodingMatchesReflection(t *testing.T) {
	lim, one := int64(10), int64(1)
	col := func(t, c string) *Column { return &Column{Table: t, Column: c} }
	str := &Literal{Type: TString, Text: `<a & "b"> é` + "\u2028\x01"}
	sub := &Query{Select: []SelectItem{{Expr: col("", "x"), Alias: "x"}}, From: []From{{Schema: "main", Table: "u", Alias: "u"}}}
	q := &Query{
		With:     []CTE{{Name: "c", Query: sub}, {Name: "nil"}},
		Distinct: true,
		Select: []SelectItem{
			{Expr: col("t", "a"), Alias: "a<b>"},
			{Expr: &Func{Name: "COUNT", Distinct: true}, Alias: "n"},
			{Expr: &Func{Name: "SUM", Args: []Expr{&Cast{Expr: col("t", "v"), Type: CastDecimal}}}, Alias: "s"},
			{Expr: &Window{Name: "ROW_NUMBER", OrderBy: []OrderItem{{Expr: col("t", "a")}}}, Alias: "w"},
			{Expr: &Case{Operand: col("t", "a"), Whens: []When{{When: str, Then: &Literal{Type: TInteger, Int: 1 << 60}}}, Else: &Literal{Type: TNull}}, Alias: "k"},
			{Expr: nil, Alias: "none"},
			{Expr: (*Column)(nil), Alias: "typed nil"},
			{Expr: &MetricRef{Name: "m"}, Alias: "m"},
		},
		From:    []From{{Table: "t", Alias: "t"}, {Subquery: sub, Alias: "s"}},
		Joins:   []Join{{Type: JoinLeft, Left: "t", Right: "s", On: []OnPair{{LeftColumn: "a", RightColumn: "x"}}, Condition: &Binary{Op: OpGt, Left: col("t", "a"), Right: &Literal{Type: TDate, Text: "2024-01-01"}, Temporal: "date"}}, {Type: JoinInner, Left: "t", Right: "u"}},
		Where:   &Binary{Op: OpAnd, Left: &In{Expr: col("t", "a"), List: []Expr{str}, Negated: true}, Right: &Exists{Subquery: sub}},
		GroupBy: []Expr{col("t", "a"), &Unary{Op: "-", Expr: col("t", "v")}},
		Having:  &Between{Expr: col("", "n"), Low: &Literal{Type: TInteger, Int: 1}, High: &Literal{Type: TDecimal, Text: "2.50"}},
		Qualify: &Like{Expr: col("", "a"), Pattern: str, CaseInsensitive: true},
		SetOps:  []SetOp{{Op: UnionAll, Query: sub}, {Op: Except}},
		OrderBy: []OrderItem{{Expr: col("", "a"), Direction: Desc, Nulls: NullsLast}, {Expr: &IsNull{Expr: col("t", "v"), Negated: true}}},
		Limit:   &lim, WithTies: true, Offset: &one,
	}
	encodingMatchesReflection(t, "every field", q)
	encodingMatchesReflection(t, "empty", &Query{})
	encodingMatchesReflection(t, "empty lists", &Query{Select: []SelectItem{}, From: []From{}, GroupBy: []Expr{}, Joins: []Join{{On: []OnPair{}}}})
	if b, err := json.Marshal(struct{ Q *Query }{}); err != nil || string(b) != `{"Q":null}` {
		t.Errorf("a nil plan encodes as %s (%v)", b, err)
	}
}
