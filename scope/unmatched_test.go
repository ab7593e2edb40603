package scope_test

import (
	"reflect"
	"testing"

	"github.com/nl2sql/nl2sql/scope"
)

// A pattern with a typo hides (or grants) nothing, silently: the operator
// believes Customer.Email is hidden while every caller reads it. Unmatched
// names each such pattern, its role and key, and the closest real name;
// patterns that do match, wildcards included, are not listed.
func TestUnmatchedPatternsNameTheTypo(t *testing.T) {
	_, snap := chinook(t)
	_, p := loadPolicy(t, `
datasources: [{id: chinook, engine: sqlite, path: CHINOOK}, {id: other, engine: sqlite, path: x.db}]
roles:
  analyst:
    allow: ["chinook", "chinook.main.Invoice*", "*.main.Nothing"]
    deny:  ["chinook.main.Employe", "chinook.main.Customer.Emial", "chinook.main.Customer.Phone", "other.main.Whatever"]
  rep:
    allow: ["chinook.main.Custmer"]
    row_filters:
      - {table: chinook.main.Invoices, where: "CustomerId = 1"}
      - {table: chinook.main.Invoice, where: "CustomerId = 1"}
users: [{name: alice, roles: [analyst, rep]}]
`)
	got := p.Unmatched(snap)
	want := []scope.Unmatched{
		{Role: "analyst", Key: "roles.analyst.deny[0]", Pattern: "chinook.main.Employe", Near: "chinook.main.Employee"},
		{Role: "analyst", Key: "roles.analyst.deny[1]", Pattern: "chinook.main.Customer.Emial", Near: "chinook.main.Customer.Email"},
		{Role: "rep", Key: "roles.rep.allow[0]", Pattern: "chinook.main.Custmer", Near: "chinook.main.Customer"},
		{Role: "rep", Key: "roles.rep.row_filters[0].table", Pattern: "chinook.main.Invoices", Near: "chinook.main.Invoice"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmatched =\n%+v\nwant\n%+v", got, want)
	}
	if s := got[0].String(); s != `role analyst: roles.analyst.deny[0] "chinook.main.Employe" matches nothing in the schema, so it hides nothing; did you mean "chinook.main.Employee"?` {
		t.Errorf("String() = %s", s)
	}
}
