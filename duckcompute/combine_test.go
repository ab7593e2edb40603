package duckcompute

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

func in(table, role string) Input {
	return Input{Table: table, Label: strings.TrimPrefix(table, "sq_"), Role: role}
}

// run prepares, loads and runs a combination and returns the rows as JSON.
func run(t *testing.T, tables []Shape, data map[string][][]any, groups []Group, final *planast.Query) (string, *Combination, []Warning) {
	t.Helper()
	ctx := context.Background()
	c, err := Prepare(tables, groups, final)
	if err != nil {
		t.Fatal(err)
	}
	d := openDB(t)
	var warns []Warning
	for _, s := range c.Tables {
		w, err := d.Load(ctx, s, data[s.Name])
		if err != nil {
			t.Fatal(err)
		}
		warns = append(warns, w...)
	}
	out, err := d.Run(ctx, c.Plan, 100)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"columns": out.Columns, "rows": out.Rows})
	return string(b), c, warns
}

// A compare keeps both sides (a full join with coalesced keys); the key
// types meet (integer and text become integer, date and timestamp become
// timestamp); a value that does not convert warns and matches nothing.
func TestCompareCoercesKeys(t *testing.T) {
	sales := shape("sq_sales", "rep", tInt, "day", tDate, "amount", tDec)
	plan := shape("sq_plan", "rep", tText, "day", tTS, "amount", tDec)
	got, c, warns := run(t, []Shape{sales, plan}, map[string][][]any{
		"sq_sales": {{int64(3), "2025-01-01", 10.5}, {int64(4), "2025-01-01", 7.25}},
		"sq_plan":  {{"3", "2025-01-01 00:00:00", int64(12)}, {"five", "2025-01-01 00:00:00", int64(9)}},
	}, []Group{{Name: "cg_c", Op: OpCompare, Inputs: []Input{in("sq_plan", "compare"), in("sq_sales", "base")},
		Keys: []Key{{Left: "rep", Right: "rep"}, {Left: "day", Right: "day"}}}}, nil)
	want := `{"columns":["rep","day","amount","plan_amount"],"rows":[[3,"2025-01-01 00:00:00",10.50,12.00],[4,"2025-01-01 00:00:00",7.25,null],[null,"2025-01-01 00:00:00",null,9.00]]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if c.Tables[1].Columns[0].Type != tInt || c.Tables[0].Columns[1].Type != tTS || c.Tables[1].Columns[1].Type != tTS {
		t.Errorf("key columns load as %v and %v", c.Tables[0].Columns, c.Tables[1].Columns)
	}
	if len(warns) != 1 || warns[0].Table != "sq_plan" || warns[0].Column != "rep" || warns[0].Count != 1 || warns[0].Example != `"five"` {
		t.Errorf("warnings = %+v", warns)
	}
}

// A union stacks inputs in role order with a label column; a later group
// reads an earlier one; the final plan aggregates.
func TestUnionAndChain(t *testing.T) {
	a := shape("sq_a", "year", tInt, "amount", tDec)
	b := shape("sq_b", "yr", tInt, "total", tInt)
	names := shape("sq_names", "year", tInt, "label", tText)
	final := decode(t, `{"select": [{"expr": {"kind": "column", "table": "g", "column": "kind"}, "alias": "kind"},
		{"expr": {"kind": "func", "name": "SUM", "args": [{"kind": "column", "table": "g", "column": "total"}]}, "alias": "amount"}],
		"from": [{"table": "cg_named", "alias": "g"}], "group_by": [{"kind": "column", "table": "g", "column": "kind"}]}`)
	got, c, _ := run(t, []Shape{a, b, names}, map[string][][]any{
		"sq_a":     {{int64(2024), 1.5}, {int64(2025), 2.5}},
		"sq_b":     {{int64(2024), int64(10)}},
		"sq_names": {{int64(2024), "old"}, {int64(2025), "new"}},
	}, []Group{
		{Name: "cg_u", Op: OpUnion, LabelColumn: "kind", Inputs: []Input{in("sq_b", "member"), in("sq_a", "member")}},
		{Name: "cg_named", Op: OpJoin, JoinType: planast.JoinLeft, Inputs: []Input{in("cg_u", "left"), in("sq_names", "right")},
			Keys: []Key{{Left: "yr", Right: "year"}}},
	}, final)
	want := `{"columns":["kind","amount"],"rows":[["a",4],["b",10]]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if s := c.Groups["cg_u"]; len(s.Columns) != 3 || s.Columns[0].Name != "kind" || s.Columns[1].Name != "yr" {
		t.Errorf("union shape %+v (named by the first input in role order, sq_b)", s)
	}
}

func TestPrepareRefuses(t *testing.T) {
	a := shape("sq_a", "id", tInt, "d", tDate, "x", tText, "f", tFlt)
	b := shape("sq_b", "id", tText, "d", tInt, "flag", tBool)
	cases := []struct {
		name   string
		groups []Group
		in     string
	}{
		{"number joins date", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"d", "d"}}}}, "never joins"},
		{"boolean joins number", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"id", "flag"}}}}, "never joins"},
		{"missing key column", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"nope", "id"}}}}, "no column"},
		{"no keys", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}}}, "key pair"},
		{"two lefts", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "base")}, Keys: []Key{{"id", "id"}}}}, "role"},
		{"right join", []Group{{Name: "g", Op: OpJoin, JoinType: planast.JoinRight, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"id", "id"}}}}, "join_type"},
		{"unknown input", []Group{{Name: "g", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_zz", "right")}, Keys: []Key{{"id", "id"}}}}, "neither"},
		{"union widths", []Group{{Name: "g", Op: OpUnion, Inputs: []Input{in("sq_a", "member"), {Table: "sq_b", Role: "member"}, {Table: "sq_a", Role: "member"}}}}, ""},
		{"key typed twice", []Group{
			{Name: "g1", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"id", "id"}}},
			{Name: "g2", Op: OpJoin, Inputs: []Input{in("sq_b", "left"), in("sq_a", "right")}, Keys: []Key{{"id", "f"}}}}, "earlier group"},
		{"group key not castable", []Group{
			{Name: "g1", Op: OpJoin, Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}, Keys: []Key{{"id", "id"}}},
			{Name: "g2", Op: OpJoin, Inputs: []Input{in("g1", "left"), in("sq_b", "right")}, Keys: []Key{{"x", "d"}}}}, "not cast"},
		{"name clash", []Group{{Name: "SQ_A", Op: OpUnion, Inputs: []Input{in("sq_a", "member"), in("sq_a", "member")}}}, "table"},
		{"bad op", []Group{{Name: "g", Op: "merge", Inputs: []Input{in("sq_a", "left"), in("sq_b", "right")}}}, "merge"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Prepare([]Shape{a, b}, c.groups, nil)
			var ge *GroupError
			if !errors.As(err, &ge) {
				if c.in == "" && err != nil {
					return
				}
				t.Fatalf("err = %v, want a *GroupError", err)
			}
			if !strings.Contains(err.Error(), c.in) {
				t.Errorf("err = %v, want it to mention %q", err, c.in)
			}
		})
	}
	_, err := Prepare([]Shape{a, b}, nil, decode(t, `{"select": [{"expr": {"kind": "column", "table": "t", "column": "id"}, "alias": "id"}], "from": [{"table": "sq_c", "alias": "t"}]}`))
	var pe *planast.Error
	if !errors.As(err, &pe) || pe.FirstCode() != planast.CodeTableNotFound {
		t.Errorf("final plan naming a missing table: %v", err)
	}
}
