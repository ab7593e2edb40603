package render_test

import (
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The parity test holds the invariant "the validator refuses everything the
// renderer can refuse or would mis-render": each plan below is built in Go,
// bypassing Decode, and validate.Plan must refuse it.

func pcol(table, column string) *planast.Column { return &planast.Column{Table: table, Column: column} }
func pint(n int64) *planast.Literal             { return &planast.Literal{Type: planast.TInteger, Int: n} }
func pstr(s string) *planast.Literal            { return &planast.Literal{Type: planast.TString, Text: s} }
func i64(n int64) *int64                        { return &n }

// trackQuery is a valid plan over Track; mutate edits a fresh copy.
func trackQuery(mutate func(q *planast.Query)) *planast.Query {
	q := &planast.Query{
		Select: []planast.SelectItem{{Expr: pcol("t", "Name"), Alias: "Name"}},
		From:   []planast.From{{Table: "Track", Alias: "t"}},
	}
	mutate(q)
	return q
}

func withItem(e planast.Expr) func(q *planast.Query) {
	return func(q *planast.Query) { q.Select = append(q.Select, planast.SelectItem{Expr: e, Alias: "x"}) }
}

func withWhere(e planast.Expr) func(q *planast.Query) {
	return func(q *planast.Query) { q.Where = e }
}

func TestParityValidatorRefusesFirst(t *testing.T) {
	genre := planast.From{Table: "Genre", Alias: "g"}
	cases := []struct {
		name        string
		q           *planast.Query
		renderFails bool // the renderer refuses it too; otherwise it would mis-render
	}{
		{"unknown function", trackQuery(withItem(&planast.Func{Name: "load_extension", Args: []planast.Expr{pstr("/tmp/x.so")}})), true},
		{"function name with SQL", trackQuery(withItem(&planast.Func{Name: "COUNT(*)); DROP TABLE t; --"})), true},
		{"window-only function as a plain func", trackQuery(withItem(&planast.Func{Name: "ROW_NUMBER"})), true},
		{"scalar function as a window", trackQuery(withItem(&planast.Window{Name: "UPPER", Args: []planast.Expr{pcol("t", "Name")}})), true},
		{"unknown window function", trackQuery(withItem(&planast.Window{Name: "NTILE", Args: []planast.Expr{pint(4)}})), true},
		{"malformed unit", trackQuery(withItem(&planast.Func{Name: "DATE_TRUNC", Args: []planast.Expr{pstr("month') --"), pcol("t", "Name")}})), true},
		{"unknown unit", trackQuery(withItem(&planast.Func{Name: "DATE_PART", Args: []planast.Expr{pstr("fortnight"), pcol("t", "Name")}})), true},
		{"a DATE_PART unit DATE_ADD does not take", trackQuery(withItem(&planast.Func{Name: "DATE_ADD", Args: []planast.Expr{pstr("week"), pint(1), pcol("t", "Name")}})), true},
		{"unit not a literal", trackQuery(withItem(&planast.Func{Name: "DATE_ADD", Args: []planast.Expr{pcol("t", "Name"), pint(1), pcol("t", "Name")}})), true},
		{"wrong arity", trackQuery(withItem(&planast.Func{Name: "SUBSTR", Args: []planast.Expr{pcol("t", "Name")}})), true},
		{"empty IN list", trackQuery(withWhere(&planast.In{Expr: pcol("t", "TrackId")})), true},
		{"case without whens", trackQuery(withItem(&planast.Case{Else: pint(1)})), true},
		{"missing expression", trackQuery(withItem(nil)), true},
		{"unknown binary operator", trackQuery(withItem(&planast.Binary{Op: "||", Left: pcol("t", "Name"), Right: pstr("x")})), true},
		{"unknown unary operator", trackQuery(withItem(&planast.Unary{Op: "~", Expr: pcol("t", "TrackId")})), true},
		{"unknown literal type", trackQuery(withItem(&planast.Literal{Type: "money", Text: "1"})), true},
		{"decimal literal with SQL", trackQuery(withItem(&planast.Literal{Type: planast.TDecimal, Text: "1--2"})), true},
		{"NUL in a string literal", trackQuery(withItem(pstr("a\x00b"))), true},
		{"from item not joined", trackQuery(func(q *planast.Query) { q.From = append(q.From, genre) }), true},
		{"join to an unknown alias", trackQuery(func(q *planast.Query) {
			q.Joins = []planast.Join{{Type: planast.JoinInner, Left: "t", Right: "zz", On: []planast.OnPair{{LeftColumn: "GenreId", RightColumn: "GenreId"}}}}
		}), true},
		{"join without condition", trackQuery(func(q *planast.Query) {
			q.From = append(q.From, genre)
			q.Joins = []planast.Join{{Type: planast.JoinInner, Left: "t", Right: "g"}}
		}), true},
		{"unknown join type", trackQuery(func(q *planast.Query) {
			q.From = append(q.From, genre)
			q.Joins = []planast.Join{{Type: "cross", Left: "t", Right: "g", On: []planast.OnPair{{LeftColumn: "GenreId", RightColumn: "GenreId"}}}}
		}), true},
		{"unknown set operation", trackQuery(func(q *planast.Query) {
			q.SetOps = []planast.SetOp{{Op: "minus", Query: trackQuery(func(*planast.Query) {})}}
		}), true},
		{"no from but a column reference", trackQuery(func(q *planast.Query) { q.From = nil }), false},
		{"from item without table", trackQuery(func(q *planast.Query) { q.From[0].Table = "" }), true},
		{"negative limit", trackQuery(func(q *planast.Query) { q.Limit = i64(-1) }), true},
		{"with_ties with a negative limit", trackQuery(func(q *planast.Query) {
			q.Limit, q.WithTies, q.OrderBy = i64(-1), true, []planast.OrderItem{{Expr: pcol("t", "Name")}}
		}), true},
		{"with_ties without a limit", trackQuery(func(q *planast.Query) {
			q.WithTies, q.OrderBy = true, []planast.OrderItem{{Expr: pcol("t", "Name")}}
		}), true},
		{"qualify on a query with set operations", trackQuery(func(q *planast.Query) {
			q.Select = append(q.Select, planast.SelectItem{Expr: &planast.Window{Name: "RANK", OrderBy: []planast.OrderItem{{Expr: pcol("t", "Name")}}}, Alias: "r"})
			q.Qualify = &planast.Binary{Op: "=", Left: pcol("", "r"), Right: pint(1)}
			q.SetOps = []planast.SetOp{{Op: planast.Union, Query: &planast.Query{Select: q.Select, From: q.From}}}
		}), true},
		{"with_ties without order_by", trackQuery(func(q *planast.Query) { q.Limit, q.WithTies = i64(2), true }), false},
		{"qualify naming a source column", trackQuery(func(q *planast.Query) {
			q.Qualify = &planast.Binary{Op: "=", Left: pcol("t", "GenreId"), Right: pint(1)}
		}), false},
		{"negative offset", trackQuery(func(q *planast.Query) {
			q.Offset = i64(-1)
			q.OrderBy = []planast.OrderItem{{Expr: pcol("t", "Name")}}
		}), true},
		// the renderer would produce SQL, but not SQL that means the plan
		{"unknown cast type", trackQuery(withItem(&planast.Cast{Expr: pcol("t", "TrackId"), Type: "money"})), false},
		{"impossible date literal", trackQuery(withItem(&planast.Literal{Type: planast.TDate, Text: "2025-02-30"})), false},
		{"a date truncated to the hour", trackQuery(withItem(&planast.Func{Name: "DATE_TRUNC", Args: []planast.Expr{pstr("hour"), &planast.Literal{Type: planast.TDate, Text: "2024-01-01"}}})), false},
		{"count distinct of nothing", trackQuery(withItem(&planast.Func{Name: "COUNT", Distinct: true})), false},
		{"distinct on a scalar function", trackQuery(withItem(&planast.Func{Name: "UPPER", Args: []planast.Expr{pcol("t", "Name")}, Distinct: true})), false},
		{"unknown order direction", trackQuery(func(q *planast.Query) {
			q.OrderBy = []planast.OrderItem{{Expr: pcol("t", "Name"), Direction: "sideways"}}
		}), false},
		{"order by a constant (a column position)", trackQuery(func(q *planast.Query) { q.OrderBy = []planast.OrderItem{{Expr: pint(2)}} }), false},
		{"group by a constant (a column position)", trackQuery(func(q *planast.Query) { q.GroupBy = []planast.Expr{pint(1)} }), false},
		{"offset without order", trackQuery(func(q *planast.Query) { q.Offset = i64(5) }), false},
		{"control character in an alias", trackQuery(func(q *planast.Query) { q.Select[0].Alias = "a\nb" }), false},
		{"unknown table", trackQuery(func(q *planast.Query) { q.From[0].Table = `Track"; DROP TABLE t; --` }), false},
		{"unknown column", trackQuery(func(q *planast.Query) { q.Select[0].Expr = pcol("t", `Name" FROM t; --`) }), false},
		{"remainder of a decimal", trackQuery(withItem(&planast.Binary{Op: planast.OpMod, Left: pcol("t", "UnitPrice"), Right: pint(2)})), false},
		{"cast boolean to number", trackQuery(withItem(&planast.Cast{Expr: &planast.Literal{Type: planast.TBoolean, Bool: true}, Type: planast.CastInteger})), false},
		{"set op with an order on its right side", trackQuery(func(q *planast.Query) {
			q.SetOps = []planast.SetOp{{Op: planast.Union, Query: trackQuery(func(r *planast.Query) { r.Limit = i64(1) })}}
		}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := validate.Plan(c.q, goldenCatalog, validate.Options{}); err == nil {
				t.Fatalf("the validator accepted it:\n%s", c.q.Canonical())
			}
			if !c.renderFails {
				return
			}
			for _, d := range dialects() {
				if sql, err := render.SQL(c.q, d, goldenOpts); err == nil {
					t.Errorf("%s renders it; move the case to the mis-render group:\n%s", d.Name(), sql)
				}
			}
		})
	}
}

// TestParityNormalises: what the renderer refuses but the plan language
// allows is rewritten by Validate into a form the renderer takes.
func TestParityNormalises(t *testing.T) {
	q := trackQuery(withItem(&planast.Literal{Type: planast.TDecimal, Text: "1e5"}))
	if _, err := render.SQL(q, sqliteDialect, goldenOpts); err == nil {
		t.Fatal("the renderer takes an exponent; the case is moot")
	}
	v, err := validate.Plan(q, goldenCatalog, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dialects() {
		if _, err := render.SQL(v.Plan, d, goldenOpts); err != nil {
			t.Errorf("%s: %v", d.Name(), err)
		}
	}
}

// TestParityGolden: for every golden plan and every dialect, validation
// success implies render success.
func TestParityGolden(t *testing.T) {
	for _, g := range goldenPlans(t) {
		for _, d := range dialects() {
			if _, err := render.SQL(g.v.Plan, d, goldenOpts); err != nil {
				t.Errorf("%s/%s: validated but not rendered: %v", g.name, d.Name(), err)
			}
			if _, err := render.SQL(g.v.Plan, d, render.Options{NoTotalOrder: true}); err != nil {
				t.Errorf("%s/%s (no total order): %v", g.name, d.Name(), err)
			}
		}
	}
}
