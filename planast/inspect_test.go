package planast_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

func TestInspectVisitsEveryKind(t *testing.T) {
	q := decode(t, allKindsPlan)
	seen := map[string]bool{}
	queries := 0
	planast.Inspect(q, func(n planast.Node) bool {
		switch n := n.(type) {
		case *planast.Query:
			queries++
		case planast.Expr:
			seen[n.Kind()] = true
		default:
			t.Fatalf("Inspect visited a %T", n)
		}
		return true
	})
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	sort.Strings(got)
	// metric and filter references are expanded before validation; they
	// have their own Inspect test (semantic_test.go)
	want := slices.DeleteFunc(slices.Clone(planast.Kinds), func(k string) bool { return k == "metric" || k == "filter" })
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("visited kinds %v, want %v", got, want)
	}
	if queries != 4 { // root, CTE, scalar subquery, EXISTS subquery
		t.Errorf("visited %d queries, want 4", queries)
	}
	// the validated copy has the same shape
	v, err := validate.Plan(q, chinook, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	planast.Inspect(v.Plan, func(planast.Node) bool { n++; return true })
	m := 0
	planast.Inspect(q, func(planast.Node) bool { m++; return true })
	if n != m {
		t.Errorf("validated plan has %d nodes, input %d", n, m)
	}
}

func TestInspectSkipsChildren(t *testing.T) {
	q := decode(t, allKindsPlan)
	var kinds []string
	planast.Inspect(q, func(n planast.Node) bool {
		if e, ok := n.(planast.Expr); ok {
			kinds = append(kinds, e.Kind())
			return false // never enter an expression
		}
		_, isQuery := n.(*planast.Query)
		return isQuery && n == planast.Node(q) // enter only the root
	})
	// the root's top-level expressions, in JSON field order: select, where, order_by
	want := []string{"column", "case", "subquery", "window", "is_null", "binary", "column"}
	if !slices.Equal(kinds, want) {
		t.Errorf("got %v, want %v", kinds, want)
	}
	planast.Inspect(nil, func(planast.Node) bool { t.Fatal("visited nil"); return true })
	planast.Inspect((*planast.Query)(nil), func(planast.Node) bool { t.Fatal("visited nil query"); return true })
}

func TestKindsMatchNodes(t *testing.T) {
	nodes := []planast.Expr{&planast.Column{}, &planast.Literal{}, &planast.Binary{}, &planast.Unary{}, &planast.In{},
		&planast.Exists{}, &planast.Subquery{}, &planast.Between{}, &planast.Like{}, &planast.IsNull{},
		&planast.Case{}, &planast.Cast{}, &planast.Func{}, &planast.Window{}, &planast.MetricRef{}, &planast.FilterRef{}}
	if len(nodes) != len(planast.Kinds) {
		t.Fatalf("%d node types, %d kinds", len(nodes), len(planast.Kinds))
	}
	for i, n := range nodes {
		if n.Kind() != planast.Kinds[i] {
			t.Errorf("node %T has kind %q, Kinds[%d] is %q", n, n.Kind(), i, planast.Kinds[i])
		}
	}
}
