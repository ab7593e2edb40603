package scope_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
	"github.com/nl2sql/nl2sql/scope"
)

// runPlan does what the engine does with a plan for a caller: apply row
// filters, validate with the caller's checker, render, run on Chinook.
func runPlan(t *testing.T, sc *scope.Scope, plan string) ([][]any, error) {
	t.Helper()
	src, snap := chinook(t)
	q, err := scope.ApplyRowFilters(decodePlan(t, plan), "chinook", sc, snap)
	if err != nil {
		return nil, err
	}
	v, err := validate.Plan(q, snap, validate.Options{Access: sc.Checker("chinook")})
	if err != nil {
		return nil, err
	}
	d, _ := render.Lookup("sqlite")
	sql, err := render.SQL(v.Plan, d, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := src.Query(context.Background(), sql, nil, 1000)
	if err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
	return res.Rows, nil
}

// rawRows runs SQL directly (the expected answer).
func rawRows(t *testing.T, sql string) [][]any {
	t.Helper()
	src, _ := chinook(t)
	res, err := src.Query(context.Background(), sql, nil, 1000)
	if err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
	return res.Rows
}

const (
	col      = `{"kind":"column","table":%q,"column":%q}`
	countAll = `{"kind":"func","name":"count","args":[]}`
)

func c(table, column string) string { return fmt.Sprintf(col, table, column) }

// Jane (rep, employee_id 3) sees only her customers wherever a plan reads
// Customer: top level, joins, derived tables, CTEs, set operations and
// subqueries in expressions. A CTE that shadows the name is not the table.
func TestJaneSeesOnlyHerCustomers(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	jane := user(t, p, "jane")
	mineCount := `SELECT count(*) FROM Customer WHERE SupportRepId = 3`
	tests := []struct {
		name, plan, want string
	}{
		{"top level",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}`, mineCount},
		{"lower-case name with schema",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"schema":"main","table":"customer","alias":"c"}]}`, mineCount},
		{"every row is hers",
			`{"distinct":true,"select":[{"expr":` + c("c", "SupportRepId") + `,"alias":"rep"}],"from":[{"table":"Customer","alias":"c"}]}`, `SELECT 3`},
		{"join",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Invoice","alias":"i"},{"table":"Customer","alias":"c"}],
			  "joins":[{"left":"i","right":"c","on":[{"left_column":"CustomerId","right_column":"CustomerId"}]}]}`,
			`SELECT count(*) FROM Invoice i JOIN Customer c USING (CustomerId) WHERE c.SupportRepId = 3`},
		{"derived table",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"subquery":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}]},"alias":"d"}]}`, mineCount},
		{"CTE",
			`{"with":[{"name":"cs","query":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}]}}],
			  "select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"cs","alias":"x"}]}`, mineCount},
		{"IN subquery",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Invoice","alias":"i"}],
			  "where":{"kind":"in","expr":` + c("i", "CustomerId") + `,"subquery":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}]}}}`,
			`SELECT count(*) FROM Invoice WHERE CustomerId IN (SELECT CustomerId FROM Customer WHERE SupportRepId = 3)`},
		{"EXISTS",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Invoice","alias":"i"}],
			  "where":{"kind":"exists","subquery":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}],
			    "where":{"kind":"binary","op":"=","left":` + c("c", "CustomerId") + `,"right":` + c("i", "CustomerId") + `}}}}`,
			`SELECT count(*) FROM Invoice i WHERE EXISTS (SELECT 1 FROM Customer c WHERE c.CustomerId = i.CustomerId AND c.SupportRepId = 3)`},
		{"scalar subquery",
			`{"select":[{"expr":{"kind":"subquery","query":{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}},"alias":"n"}],"from":[{"table":"Invoice","alias":"i"}],"limit":1}`, mineCount},
		{"set operation branch",
			`{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"subquery":{"select":[{"expr":` + c("i", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Invoice","alias":"i"}],
			  "set_ops":[{"op":"intersect","query":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}]}}]},"alias":"d"}]}`,
			mineCount},
		{"CTE body nested in a CTE",
			`{"with":[{"name":"a","query":{"with":[{"name":"b","query":{"select":[{"expr":` + c("c", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Customer","alias":"c"}]}}],
			   "select":[{"expr":` + c("b", "id") + `,"alias":"id"}],"from":[{"table":"b","alias":"b"}]}}],
			  "select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"a","alias":"x"}]}`, mineCount},
		{"a CTE named Customer is not the table",
			`{"with":[{"name":"Customer","query":{"select":[{"expr":` + c("i", "CustomerId") + `,"alias":"id"}],"from":[{"table":"Invoice","alias":"i"}]}}],
			  "select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Customer","alias":"x"}]}`, `SELECT count(*) FROM Invoice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runPlan(t, jane, tt.plan)
			if err != nil {
				t.Fatal(err)
			}
			if want := rawRows(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			// without the filter the answer differs (the test is not vacuous)
			if strings.Contains(tt.want, "SupportRepId = 3") {
				all, err := runPlan(t, scope.SingleUser(), tt.plan)
				if err != nil {
					t.Fatal(err)
				}
				if reflect.DeepEqual(all, got) {
					t.Errorf("filtered and unfiltered agree: %v", all)
				}
			}
		})
	}
}

// The rewrite's shape: the same alias, the table's visible columns by
// name, the filter with the attribute bound as a typed literal.
func TestApplyRowFiltersShape(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	_, snap := chinook(t)
	in := decodePlan(t, `{"select":[{"expr":`+c("c", "City")+`,"alias":"city"}],"from":[{"table":"Customer","alias":"c"}]}`)
	before := string(in.Canonical())
	out, err := scope.ApplyRowFilters(in, "chinook", user(t, p, "jane"), snap)
	if err != nil {
		t.Fatal(err)
	}
	if string(in.Canonical()) != before {
		t.Error("the input plan was modified")
	}
	f := out.From[0]
	if f.Alias != "c" || f.Subquery == nil || f.Subquery.From[0].Schema != "main" || f.Subquery.From[0].Table != "Customer" {
		t.Fatalf("from = %s", out.Canonical())
	}
	if len(f.Subquery.Select) != 13 {
		t.Errorf("%d columns, want Customer's 13", len(f.Subquery.Select))
	}
	where, _ := f.Subquery.Where.(*planast.Binary)
	if lit, _ := where.Right.(*planast.Literal); where == nil || lit == nil || lit.Type != planast.TInteger || lit.Int != 3 {
		t.Errorf("where = %#v", f.Subquery.Where)
	}
	// no filter for this caller: the plan itself comes back
	if got, _ := scope.ApplyRowFilters(in, "chinook", user(t, p, "alice"), snap); got != in {
		t.Error("alice has no filters")
	}
}

// A filter that cannot be applied refuses the plan instead of running it
// unfiltered.
func TestRowFilterFailsClosed(t *testing.T) {
	_, p := loadPolicy(t, strings.Replace(issueRoles, "  catalog:", `  hiddenrep:
    allow: ["chinook.main.Customer"]
    deny: ["chinook.main.Customer.SupportRepId"]
    row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]
  typo:
    allow: ["chinook.main.Customer"]
    row_filters: [{table: chinook.main.Customer, where: "SupportRep = :employee_id"}]
  catalog:`, 1)+`  - {name: hid, roles: [hiddenrep], attributes: {employee_id: 3}}
  - {name: typo, roles: [typo], attributes: {employee_id: 3}}
`)
	plan := `{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}`
	tests := []struct {
		name string
		sc   *scope.Scope
		want string
	}{
		{"missing attribute", user(t, p, "janeless"), `attribute "employee_id"`},
		{"filter column hidden", user(t, p, "hid"), "missing or hidden"},
		{"filter column missing", user(t, p, "typo"), "missing or hidden"},
	}
	for _, tt := range tests {
		_, err := runPlan(t, tt.sc, plan)
		if !errors.Is(err, scope.ErrRowFilter) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// Analyst may not read Employee, in any position of a plan, nor
// Customer.Email; the refusals look like missing names and reveal nothing
// the caller may not see (a missing column's message lists the columns
// the caller sees, never a hidden one).
func TestAnalystRefusedEmployee(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	alice := user(t, p, "alice")
	emp := `{"select":[{"expr":` + c("e", "EmployeeId") + `,"alias":"id"}],"from":[{"table":"Employee","alias":"e"}]}`
	tests := []struct{ name, plan, path string }{
		{"IN subquery", `{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"Customer","alias":"c"}],
			"where":{"kind":"in","expr":` + c("c", "SupportRepId") + `,"subquery":` + emp + `}}`, "where.subquery.from[0].table"},
		{"CTE", `{"with":[{"name":"s","query":` + emp + `}],"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"table":"s","alias":"s"}]}`, "with[0].query.from[0].table"},
		{"derived", `{"select":[{"expr":` + countAll + `,"alias":"n"}],"from":[{"subquery":` + emp + `,"alias":"d"}]}`, "from[0].subquery.from[0].table"},
		{"hidden column", `{"select":[{"expr":` + c("c", "Email") + `,"alias":"e"}],"from":[{"table":"Customer","alias":"c"}]}`, "select[0].expr.column"},
	}
	for _, tt := range tests {
		_, err := runPlan(t, alice, tt.plan)
		var pe *planast.Error
		if !errors.As(err, &pe) || pe.Issues[0].Path != tt.path {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		// Employee's columns are hidden (LastName, ReportsTo, …) and so is
		// Customer.Email; Customer's other columns may be listed as the
		// ones there are, and Email may appear once, as the name the plan
		// asked for.
		m := pe.Error()
		if strings.Contains(m, "Salary") || strings.Contains(m, "ReportsTo") || strings.Count(m, "Email") > 1 ||
			tt.name != "hidden column" && strings.Contains(m, "LastName") {
			t.Errorf("%s: the refusal reveals hidden columns: %s", tt.name, m)
		}
	}
	// the same plans run for the single user
	if _, err := runPlan(t, scope.SingleUser(), tests[0].plan); err != nil {
		t.Error(err)
	}
}

// Before any model call: a caller without Invoice asking about invoices
// is refused, and the refusal names no table.
func TestScreen(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	_, snap := chinook(t)
	tests := []struct {
		user, question string
		refused        bool
	}{
		{"carl", "What was revenue by invoice country in 2024?", true},
		{"carl", "Show me all the invoices of last year", true},
		{"carl", "List invoice lines for the top track", true},
		{"carl", "Which genres have the most tracks?", false},
		{"carl", "How many employees are there?", true},
		{"jane", "What was revenue by invoice country in 2024?", false},
		{"alice", "List the employees hired after 2003", true},
		{"alice", "Invoices per customer email domain", false}, // Email is hidden, but the word names no table
		{"nobody", "Which genres have the most tracks?", true},
	}
	for _, tt := range tests {
		err := user(t, p, tt.user).Screen("chinook", snap, tt.question)
		if (err != nil) != tt.refused {
			t.Errorf("%s %q: %v", tt.user, tt.question, err)
		}
		if err != nil {
			if !errors.Is(err, scope.ErrNotReadable) {
				t.Errorf("err = %v", err)
			}
			for _, tbl := range snap.Tables {
				if strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tbl.Name)) {
					t.Errorf("refusal %q names %s", err, tbl.Name)
				}
			}
		}
	}
	if err := scope.SingleUser().Screen("chinook", snap, "employees"); err != nil {
		t.Error(err)
	}
}

// FilterSnapshot is what describe, search, retrieval and prompts see.
func TestFilterSnapshot(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	_, snap := chinook(t)
	alice := user(t, p, "alice").FilterSnapshot(snap)
	if _, ok := alice.Lookup("main", "Employee"); ok {
		t.Error("Employee visible")
	}
	cu, ok := alice.Lookup("main", "Customer")
	if !ok {
		t.Fatal("Customer missing")
	}
	if _, ok := cu.Column("Email"); ok {
		t.Error("Email visible")
	}
	for _, fk := range cu.ForeignKeys {
		if fk.RefTable == "Employee" {
			t.Error("a foreign key reveals Employee")
		}
	}
	if len(alice.Tables) != len(snap.Tables)-1 {
		t.Errorf("%d tables", len(alice.Tables))
	}
	// a unique key over a hidden column names it ("unique (Email)" in
	// describe_schema): alice keeps only the keys of columns she may read
	keyed := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect}
	for _, tb := range snap.Tables {
		if tb.Name == "Customer" {
			tb.UniqueKeys = [][]string{{"Email"}, {"FirstName", "LastName"}}
		}
		keyed.Tables = append(keyed.Tables, tb)
	}
	if ak, _ := user(t, p, "alice").FilterSnapshot(keyed).Lookup("main", "Customer"); fmt.Sprint(ak.UniqueKeys) != "[[FirstName LastName]]" {
		t.Errorf("alice's Customer unique keys %v, want [[FirstName LastName]]", ak.UniqueKeys)
	}
	jane := user(t, p, "jane").FilterSnapshot(snap)
	if len(jane.Tables) != 2 {
		t.Errorf("jane sees %d tables", len(jane.Tables))
	}
	// Profiles describe every row: a table read through a row filter keeps
	// none (a fresh user saw other reps' customers' e-mails in jane's
	// describe_schema), one read whole keeps them.
	profiled := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect}
	n := int64(59)
	for _, tb := range snap.Tables {
		tb.RowCount = &n
		tb.Columns = slices.Clone(tb.Columns)
		for i := range tb.Columns {
			tb.Columns[i].Profile = &schema.ColumnProfile{DistinctCount: 59, SampleValues: []any{"aaronmitchell@yahoo.ca"}}
		}
		profiled.Tables = append(profiled.Tables, tb)
	}
	jp, _ := user(t, p, "jane").FilterSnapshot(profiled).Lookup("main", "Customer")
	if jp.RowCount != nil || slices.ContainsFunc(jp.Columns, func(c schema.Column) bool { return c.Profile != nil }) {
		t.Errorf("jane's Customer keeps a profile: rows %v", jp.RowCount)
	}
	if ji, _ := user(t, p, "jane").FilterSnapshot(profiled).Lookup("main", "Invoice"); ji == nil || ji.RowCount == nil || ji.Columns[0].Profile == nil {
		t.Error("jane's Invoice (no row filter) lost its profile")
	}
	if ap, _ := user(t, p, "alice").FilterSnapshot(profiled).Lookup("main", "Customer"); ap.RowCount == nil || ap.Columns[0].Profile == nil {
		t.Error("alice's Customer (no row filter) lost its profile")
	}
	if profiled.Tables[0].Columns[0].Profile == nil {
		t.Error("the original lost a profile")
	}
	if got := user(t, p, "nobody").FilterSnapshot(snap); len(got.Tables) != 0 {
		t.Error("nobody sees tables")
	}
	mail := user(t, p, "mail").FilterSnapshot(snap)
	if cu, _ := mail.Lookup("main", "Customer"); len(cu.Columns) != 2 || len(cu.PrimaryKey) != 1 {
		t.Errorf("column allow: %+v", cu)
	}
	if scope.SingleUser().FilterSnapshot(snap) != snap {
		t.Error("single user gets a copy")
	}
	// the original is untouched
	if cu, _ := snap.Lookup("main", "Customer"); len(cu.Columns) != 13 {
		t.Error("snapshot modified")
	}
}
