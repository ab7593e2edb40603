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
