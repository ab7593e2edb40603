package scope_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/scope"
)

// A row filter that reads a column its table lacks, or binds an attribute
// its user lacks, refuses every query of the table with a bare
// ACCESS_DENIED; the operator must be able to learn which filter and why
// before any query (doctor, the start-up warning) and from the refusal
// itself (log, trace). FilterProblems names the role, the filter, the
// column with the closest real one, or the user and the attribute; a
// filter that can be applied is not listed.
func TestFilterProblemsNameTheFault(t *testing.T) {
	_, snap := chinook(t)
	for _, c := range []struct {
		name, roles, users string
		want               []scope.FilterProblem
		text               string // the first problem's String() holds it
	}{
		{
			name:  "correct filter",
			roles: `{rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]}}`,
			users: `[{name: jane, roles: [rep], attributes: {employee_id: 3}}]`,
		},
		{
			name:  "misspelt column",
			roles: `{rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "SupportRep = :employee_id"}]}}`,
			users: `[{name: jane, roles: [rep], attributes: {employee_id: 3}}]`,
			want: []scope.FilterProblem{{Role: "rep", Key: "roles.rep.row_filters[0]", Table: "chinook.main.Customer",
				Where: "SupportRep = :employee_id", Column: "SupportRep", Near: "SupportRepId"}},
			text: `role rep: roles.rep.row_filters[0] (table chinook.main.Customer, where "SupportRep = :employee_id") reads column "SupportRep", which the table does not have (did you mean "SupportRepId"?)`,
		},
		{
			name:  "missing attribute",
			roles: `{rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]}}`,
			users: `[{name: jane, roles: [rep], attributes: {employee_id: 3}}, {name: sara, roles: [rep], attributes: {employeeid: 3}}]`,
			want: []scope.FilterProblem{{Role: "rep", Key: "roles.rep.row_filters[0]", Table: "chinook.main.Customer",
				Where: "SupportRepId = :employee_id", Attribute: "employee_id", User: "sara"}},
			text: "binds :employee_id, but user sara has no attribute employee_id",
		},
		{
			name:  "column the role may not read",
			roles: `{rep: {allow: ["chinook.main.Customer"], deny: ["chinook.main.Customer.SupportRepId"], row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]}}`,
			users: `[{name: jane, roles: [rep], attributes: {employee_id: 3}}]`,
			want: []scope.FilterProblem{{Role: "rep", Key: "roles.rep.row_filters[0]", Table: "chinook.main.Customer",
				Where: "SupportRepId = :employee_id", Column: "SupportRepId", Hidden: true}},
			text: `reads column "SupportRepId", which the role may not read`,
		},
		{
			// another role reads every row of the table: the filter is
			// never applied for that user, so nothing is missing
			name:  "user unfiltered through another role",
			roles: `{rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]}, analyst: {allow: [chinook]}}`,
			users: `[{name: boss, roles: [rep, analyst]}]`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, p := loadPolicy(t, "datasources: [{id: chinook, engine: sqlite, path: CHINOOK}]\nroles: "+c.roles+"\nusers: "+c.users+"\n")
			got := p.FilterProblems(snap)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("FilterProblems =\n%+v\nwant\n%+v", got, c.want)
			}
			if len(got) > 0 && !strings.Contains(got[0].String(), c.text) {
				t.Errorf("String() = %s\nwant it to hold %s", got[0].String(), c.text)
			}
		})
	}
}

// At run time the refusal carries the same account for the operator
// (FilterError.Problem, OperatorDetail) while its message, which may
// reach the caller, names no column of the table.
func TestRowFilterErrorKeepsTheReasonForTheOperator(t *testing.T) {
	_, snap := chinook(t)
	for _, c := range []struct {
		name, where, attrs, detail string
	}{
		{"misspelt column", "SupportRep = :employee_id", "{employee_id: 3}", `reads column "SupportRep", which the table does not have (did you mean "SupportRepId"?)`},
		{"missing attribute", "SupportRepId = :employee_id", "{employeeid: 3}", "binds :employee_id, but user jane has no attribute employee_id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, p := loadPolicy(t, `
datasources: [{id: chinook, engine: sqlite, path: CHINOOK}]
roles: {rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "`+c.where+`"}]}}
users: [{name: jane, roles: [rep], attributes: `+c.attrs+`}]
`)
			plan := decodePlan(t, `{"select":[{"expr":{"kind":"column","table":"c","column":"FirstName"}}],"from":[{"table":"Customer","alias":"c"}]}`)
			_, err := scope.ApplyRowFilters(plan, "chinook", user(t, p, "jane"), snap)
			var fe *scope.FilterError
			if !errors.As(err, &fe) || !errors.Is(err, scope.ErrRowFilter) {
				t.Fatalf("ApplyRowFilters: %v, want a *FilterError wrapping ErrRowFilter", err)
			}
			if fe.Problem == nil || fe.Problem.Role != "rep" || !strings.Contains(fe.OperatorDetail(), c.detail) {
				t.Fatalf("operator detail %q, want role rep and %q", fe.OperatorDetail(), c.detail)
			}
			if strings.Contains(strings.ToLower(err.Error()), "supportrep") {
				t.Errorf("the refusal's message names a column of the table: %v", err)
			}
		})
	}

	// a caller authenticated by token brings attributes from claims, which
	// no config check saw: a value no literal carries is named too
	_, p := loadPolicy(t, `
datasources: [{id: chinook, engine: sqlite, path: CHINOOK}]
roles: {rep: {allow: ["chinook.main.Customer"], row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]}}
`)
	sc := p.ForToken("tok", []string{"rep"}, map[string]any{"employee_id": []any{3.0}})
	plan := decodePlan(t, `{"select":[{"expr":{"kind":"column","table":"c","column":"FirstName"}}],"from":[{"table":"Customer","alias":"c"}]}`)
	_, err := scope.ApplyRowFilters(plan, "chinook", sc, snap)
	var fe *scope.FilterError
	if !errors.As(err, &fe) || !strings.Contains(fe.OperatorDetail(), "user tok's attribute employee_id is []interface {}, not a string, number or boolean") {
		t.Errorf("token caller with a list attribute: %v", err)
	}
}
