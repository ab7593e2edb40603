package planast_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// hiddenNames are the names policy hides; a refusal may echo the name the
// plan itself used, never any other hidden one.
var hiddenNames = []string{"Employee", "EmployeeId", "Salary", "Email"}

func TestAccessHidesTablesEverywhere(t *testing.T) {
	emp := plan(sel(c("", "LastName")), frm(from("Employee", "e")))
	opts := validate.Options{Access: policy}
	cases := []refusal{
		{"top level", emp, opts, planast.CodeTableNotFound, "from[0].table"},
		{"case-insensitive name", plan(sel(c("", "LastName")), frm(from("employee", "e"))), opts, planast.CodeTableNotFound, "from[0].table"},
		{"IN subquery", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(`{"kind":"in","expr":`+c("", "SupportRepId")+`,"subquery":`+plan(sel(c("", "EmployeeId")), frm(from("Employee", "e")))+`}`)), opts, planast.CodeTableNotFound, "where.subquery.from[0].table"},
		{"EXISTS subquery", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), where(`{"kind":"exists","subquery":`+emp+`}`)), opts, planast.CodeTableNotFound, "where.subquery.from[0].table"},
		{"scalar subquery", plan(sel(item(`{"kind":"subquery","query":`+emp+`}`, "x")), frm(from("Customer", "cu"))), opts, planast.CodeTableNotFound, "select[0].expr.query.from[0].table"},
		{"CTE", plan(`"with":[{"name":"staff","query":`+emp+`}]`, sel(c("", "LastName")), frm(from("staff", "s"))), opts, planast.CodeTableNotFound, "with[0].query.from[0].table"},
		{"derived table", plan(sel(c("", "LastName")), `"from":[{"subquery":`+emp+`,"alias":"d"}]`), opts, planast.CodeTableNotFound, "from[0].subquery.from[0].table"},
		{"set operation branch", plan(sel(c("", "LastName")), frm(from("Customer", "cu")), `"set_ops":[{"op":"union","query":`+emp+`}]`), opts, planast.CodeTableNotFound, "set_ops[0].query.from[0].table"},
		{"join", plan(sel(c("cu", "LastName")), frm(from("Customer", "cu"), from("Employee", "e")), joins(joinOn("inner", "cu", "e", "SupportRepId", "EmployeeId"))), opts, planast.CodeTableNotFound, "from[1].table"},
		{"join condition subquery", plan(sel(c("cu", "LastName")), frm(from("Customer", "cu"), from("Invoice", "i")),
			`"joins":[{"left":"cu","right":"i","on":[{"left_column":"CustomerId","right_column":"CustomerId"}],"condition":{"kind":"exists","subquery":`+emp+`}}]`), opts, planast.CodeTableNotFound, "joins[0].condition.subquery.from[0].table"},
		{"hidden column", plan(sel(c("cu", "Email")), frm(from("Customer", "cu"))), opts, planast.CodeColumnNotFound, "select[0].expr.column"},
		{"hidden column, unqualified, lower case", plan(sel(c("", "email")), frm(from("Customer", "cu"))), opts, planast.CodeColumnNotFound, "select[0].expr.column"},
		{"hidden column as join key", plan(sel(c("cu", "LastName")), frm(from("Customer", "cu"), from("Invoice", "i")), joins(joinOn("inner", "cu", "i", "Email", "BillingCountry"))), opts, planast.CodeColumnNotFound, "joins[0].on[0].left_column"},
		{"hidden column in a subquery", plan(sel(c("", "Total")), frm(from("Invoice", "i")), where(`{"kind":"in","expr":`+c("", "CustomerId")+`,"subquery":`+plan(sel(c("", "CustomerId")), frm(from("Customer", "cu")), where(`{"kind":"like","expr":`+c("", "Email")+`,"pattern":`+lit(`"%@x"`)+`}`))+`}`)), opts, planast.CodeColumnNotFound, "where.subquery.where.expr.column"},
		{"wrong column on a table with hidden ones", plan(sel(c("cu", "Mail")), frm(from("Customer", "cu"))), opts, planast.CodeColumnNotFound, "select[0].expr.column"},
	}
	for _, r := range cases {
		t.Run(r.name, func(t *testing.T) {
			is := refuse(t, r)
			for _, i := range is {
				for _, h := range hiddenNames {
					if strings.Contains(i.Message, h) && !strings.Contains(r.plan, `"`+h+`"`) && !strings.Contains(strings.ToLower(r.plan), `"`+strings.ToLower(h)+`"`) {
						t.Errorf("message reveals hidden %q: %s", h, i.Message)
					}
				}
			}
			if strings.HasPrefix(r.name, "wrong column") {
				return
			}
			// without the policy the same plan is fine
			q := decode(t, r.plan)
			if _, err := validate.Plan(q, chinook, validate.Options{}); err != nil {
				t.Errorf("refused without a policy too: %v", err)
			}
		})
	}
}

// TestHiddenLooksMissing: a hidden table or column is refused exactly as a
// missing one, so that refusals reveal nothing.
func TestHiddenLooksMissing(t *testing.T) {
	msg := func(p string) string {
		_, err := validate.Plan(decode(t, p), chinook, validate.Options{Access: policy})
		is := issues(t, err)
		return string(is[0].Code) + " " + is[0].Path + " " + is[0].Message
	}
	hidden := msg(plan(sel(c("", "LastName")), frm(from("Employee", "e"))))
	missing := msg(plan(sel(c("", "LastName")), frm(from("Employer", "e"))))
	if strings.ReplaceAll(hidden, "Employee", "Employer") != missing {
		t.Errorf("hidden and missing tables differ:\n%s\n%s", hidden, missing)
	}
	hidden = msg(plan(sel(c("cu", "Email")), frm(from("Customer", "cu"))))
	missing = msg(plan(sel(c("cu", "Emale")), frm(from("Customer", "cu"))))
	if strings.ReplaceAll(hidden, "Email", "Emale") != missing {
		t.Errorf("hidden and missing columns differ:\n%s\n%s", hidden, missing)
	}
}

// A CTE may take a hidden table's name: it shadows the table, reads only
// allowed data and reveals nothing.
func TestAccessCTEShadowsHiddenName(t *testing.T) {
	q := decode(t, plan(`"with":[{"name":"Employee","query":`+plan(sel(c("", "LastName")), frm(from("Customer", "cu")))+`}]`,
		sel(c("", "LastName")), frm(from("Employee", "e"))))
	if _, err := validate.Plan(q, chinook, validate.Options{Access: policy}); err != nil {
		t.Fatal(err)
	}
}
