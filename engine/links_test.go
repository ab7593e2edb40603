package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// linkDBs are a billing datasource whose accounts carry a code and a
// product datasource whose workspaces name the code, a tenth of them in
// lower case; both keep a city, the same few names repeated, which is
// no key.
func linkDBs(t *testing.T) (billing, product string) {
	var accounts, workspaces []string
	cities := []string{"Leeds", "York", "Hull"}
	for i := 1; i <= 30; i++ {
		accounts = append(accounts, fmt.Sprintf("(%d, 'ACC-%05d', 'Firm %d', '%s', %d, 'LY-%06d')", i, 10000+i*7, i, cities[i%3], 100*i, 500+i))
		ref := fmt.Sprintf("ACC-%05d", 10000+i*7)
		if i%10 == 0 {
			ref = strings.ToLower(ref)
		}
		// plan_code's digits are the loyalty codes' too, but neither is a
		// bare number: 'PL-0501' and 'LY-000501' are two different keys
		workspaces = append(workspaces, fmt.Sprintf("(%d, '%s', '%s', '%d', 'PL-%04d')", i, ref, cities[(i+1)%3], 500+i, 500+i))
	}
	billing = sourcetest.TempDB(t, "CREATE TABLE accounts (account_id INTEGER PRIMARY KEY, acct_code TEXT, company TEXT, city TEXT, mrr INTEGER, loyalty_code TEXT)",
		"INSERT INTO accounts VALUES "+strings.Join(accounts, ", "))
	product = sourcetest.TempDB(t, "CREATE TABLE workspaces (ws_id INTEGER PRIMARY KEY, customer_ref TEXT, city TEXT, member_no TEXT, plan_code TEXT)",
		"INSERT INTO workspaces VALUES "+strings.Join(workspaces, ", "),
		"CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, ws_id INTEGER, opened_on TEXT)",
		"INSERT INTO tickets VALUES (1, 1, '2025-02-01'), (2, 10, '2025-03-01')")
	return billing, product
}

// The threat: no schema declares a key across two databases, and a host
// asked for tickets per paying customer found workspaces.customer_ref to
// hold accounts.acct_code only from free-text notes, after plans that
// joined on nothing, and the codes written in lower case only from a
// warning afterwards. The plan-it-yourself result names the link, with
// the share held as written and once folded.
func TestHostPlanNamesTheKeyTwoDatasourcesJoinOn(t *testing.T) {
	billing, product := linkDBs(t)
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Datasources: []DatasourceSpec{
		{ID: "billing", Engine: "sqlite", Path: billing, Description: "Accounts and what they pay"},
		{ID: "product", Engine: "sqlite", Path: product, Description: "Workspaces and support tickets"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "How many tickets did each account's workspaces open, with the account's mrr?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	hp := res.HostPlan
	if len(hp.Links) != 2 || hp.Links[0].Key != "billing.accounts.acct_code" || hp.Links[0].Ref != "product.workspaces.customer_ref" ||
		hp.Links[0].Share != 0.9 || hp.Links[0].Folded != 1 || hp.Links[0].Digits != 0 {
		t.Fatalf("links %+v: want customer_ref holding acct_code, 0.9 as written, 1 folded (and no link of cities, which are no key)", hp.Links)
	}
	// a loyalty code 'LY-000501' beside the bare number '501'
	if l := hp.Links[1]; l.Key != "billing.accounts.loyalty_code" || l.Ref != "product.workspaces.member_no" || l.Share != 0 || l.Folded != 0 || l.Digits != 1 {
		t.Errorf("link %+v: want member_no holding loyalty_code's digits", l)
	}
	if !strings.Contains(hp.Next, "100% when only their digits are compared") {
		t.Errorf("next %q does not name the digits fold", hp.Next)
	}
	if !strings.Contains(hp.Next, "product.workspaces.customer_ref holds billing.accounts.acct_code's values (90% as written, 100% once letter case") {
		t.Errorf("next %q does not name the link", hp.Next)
	}
	// asked of billing, the tickets are held elsewhere: the related
	// datasource comes with the link too
	res, err = e.Ask(context.Background(), AskRequest{Datasource: "billing", Question: "How many tickets did each account's workspaces open, with the account's mrr?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if hp = res.HostPlan; len(hp.Related) != 1 || len(hp.Links) != 2 || !strings.Contains(hp.Next, "product.workspaces.customer_ref holds billing.accounts.acct_code's values") {
		t.Errorf("asked of billing: related %d, links %+v, next %q", len(hp.Related), hp.Links, hp.Next)
	}
}

// A caller who reads accounts through a row filter is told no link: the
// shares would count the codes of rows it may not read.
func TestLinksLeaveOutRowFilteredTables(t *testing.T) {
	billing, product := linkDBs(t)
	pol := policyFromYAML(t, `datasources:
  - {id: billing, engine: sqlite, path: `+billing+`}
  - {id: product, engine: sqlite, path: `+product+`}
roles:
  north:
    allow: ["billing", "product"]
    row_filters:
      - {table: billing.main.accounts, where: "city = 'Leeds'"}
users:
  - {name: nora, roles: [north]}
local_user: nora
`)
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Policy: pol, Datasources: []DatasourceSpec{
		{ID: "billing", Engine: "sqlite", Path: billing, Description: "Accounts and what they pay"},
		{ID: "product", Engine: "sqlite", Path: product, Description: "Workspaces and support tickets"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	nora, _ := pol.ForUser("nora")
	res, err := e.Ask(WithCaller(context.Background(), nora), AskRequest{Question: "How many tickets did each account's workspaces open, with the account's mrr?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if len(res.HostPlan.Links) != 0 {
		t.Errorf("links %+v for a caller who reads accounts through a row filter", res.HostPlan.Links)
	}
}

// intLinkDBs are an HR datasource whose employees have integer ids 1-40
// (no gaps) and names numbered among their kind ('Rep 7'), and a sales
// datasource whose targets name the employee by a text code of its
// digits ('7'), whose orders carry the CRM's integer customer_id
// (customers 1-25, no gaps, named 'Client 7'), a quarter 1-4, which no
// key is named for, and a store_id between the stores' ids 110, 120, …
// 500 (115, 125, …), none of which is a store's; and payouts naming the
// employee by HR's code of the id ('EMP-00014'), under a prefixed name.
func intLinkDBs(t *testing.T) (hr, sales string) {
	var emps, targets, orders, customers, stores, payouts []string
	for i := 1; i <= 20; i++ {
		payouts = append(payouts, fmt.Sprintf("(%d, 'EMP-%05d', %d)", i, 2*i, 100*i))
	}
	for i := 1; i <= 40; i++ {
		stores = append(stores, fmt.Sprintf("(%d, 'City %d')", 100+10*i, i))
	}
	for i := 1; i <= 40; i++ {
		emps = append(emps, fmt.Sprintf("(%d, 'Rep %d', %d)", i, i, 1+i%4))
	}
	for i := 1; i <= 30; i++ {
		targets = append(targets, fmt.Sprintf("(%d, '%d', %d, %d)", i, 3+i, 1+i%4, 1000*i))
	}
	for i := 1; i <= 25; i++ {
		customers = append(customers, fmt.Sprintf("(%d, 'Client %d')", i, i))
	}
	for i := 1; i <= 60; i++ {
		orders = append(orders, fmt.Sprintf("(%d, %d, %d, %d, %d)", i, 1+i%25, 1+i%4, 10*i, 105+10*(i%30)))
	}
	hr = sourcetest.TempDB(t, "CREATE TABLE Employee (EmployeeId INTEGER PRIMARY KEY, Name TEXT, Quarter INTEGER)",
		"INSERT INTO Employee VALUES "+strings.Join(emps, ", "),
		"CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, client TEXT)",
		"INSERT INTO customers VALUES "+strings.Join(customers, ", "),
		"CREATE TABLE stores (store_id INTEGER PRIMARY KEY, city TEXT)",
		"INSERT INTO stores VALUES "+strings.Join(stores, ", "))
	sales = sourcetest.TempDB(t, "CREATE TABLE rep_targets (id INTEGER PRIMARY KEY, employee_code TEXT, quarter INTEGER, target INTEGER)",
		"INSERT INTO rep_targets VALUES "+strings.Join(targets, ", "),
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, quarter INTEGER, amount INTEGER, store_id INTEGER)",
		"INSERT INTO orders VALUES "+strings.Join(orders, ", "),
		"CREATE TABLE payouts (payout_id INTEGER PRIMARY KEY, hr_employee_ref TEXT, bonus INTEGER)",
		"INSERT INTO payouts VALUES "+strings.Join(payouts, ", "))
	return hr, sales
}

// The threat: integer ids of two databases overlap by chance, so links
// compared text alone, and a host asked for each rep's sales against
// target never learnt that rep_targets.employee_code holds
// Employee.EmployeeId as digits, nor that orders.customer_id is the CRM's
// key: it joined on names or gave up. An integer key is named where a
// column of the other datasource is named for it and holds its values;
// a quarter 1-4, whose values an id 1-40 also holds, is named for nothing
// and is no link, and the digits of names ('Rep 7', 'Client 7') are no
// key's; nor is a store_id every value of which lies between two of the
// stores' (a key with gaps is not known whole from its least and greatest
// values).
func TestHostPlanNamesIntegerKeysAColumnIsNamedFor(t *testing.T) {
	hr, sales := intLinkDBs(t)
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Datasources: []DatasourceSpec{
		{ID: "hr", Engine: "sqlite", Path: hr, Description: "Employees and the CRM's customers"},
		{ID: "sales", Engine: "sqlite", Path: sales, Description: "Sales targets and orders"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "Which client ordered the largest amount, in which store city, and what is the Name of the employee with the highest target and the largest bonus payouts?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	got := map[string]string{}
	for _, l := range res.HostPlan.Links {
		got[l.Ref] = fmt.Sprintf("%s %v/%v/%v", l.Key, l.Share, l.Folded, l.Digits)
	}
	want := map[string]string{
		"sales.rep_targets.employee_code": "hr.Employee.EmployeeId 0/0/1",
		"sales.orders.customer_id":        "hr.customers.customer_id 1/0/0",
		"sales.payouts.hr_employee_ref":   "hr.Employee.EmployeeId 0/0/1",
	}
	for ref, w := range want {
		if got[ref] != w {
			t.Errorf("link of %s: %q, want %q (all: %+v)", ref, got[ref], w, res.HostPlan.Links)
		}
	}
	if len(got) != len(want) {
		t.Errorf("links %+v: want only %v (no quarter named for no key, no names' digits)", res.HostPlan.Links, want)
	}
	if !strings.Contains(res.HostPlan.Next, "sales.rep_targets.employee_code holds hr.Employee.EmployeeId's values (0% as written, 100% when only their digits are compared") {
		t.Errorf("next %q does not name the digits link", res.HostPlan.Next)
	}
}
