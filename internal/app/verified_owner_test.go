package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// The threat: with two datasources of near-equal rank, a verified query's
// own example question went to the datasource without it, and the answer
// began "… may not be stored: say so rather than answer", so the host
// never saw the reviewed query written for that question. The datasource
// holding it is chosen, and the answer leads with its call.
func TestVerifiedQueryDecidesBetweenTiedDatasources(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.sqlite", "b.sqlite"} {
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "curated.yaml"), []byte(`verified_queries:
  - id: invoices_of_customer
    datasource: shop_b
    description: The invoices one customer placed
    questions: ["Which invoices did customer 42 lodge?"]
    sql: SELECT InvoiceId, Total FROM Invoice WHERE CustomerId = :customer_id ORDER BY InvoiceId
    params:
      - {name: customer_id, type: integer, required: true, example: 42}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfg, []byte(`storage: {path: .nl2sql}
curated: curated.yaml
datasources:
  - {id: shop_a, engine: sqlite, path: a.sqlite}
  - {id: shop_b, engine: sqlite, path: b.sqlite}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which invoices did customer 42 lodge?"})
	if err != nil {
		t.Fatal(err)
	}
	hp := res.HostPlan
	if hp == nil || hp.Datasource != "shop_b" || len(hp.VerifiedQueries) == 0 || hp.VerifiedQueries[0].ID != "invoices_of_customer" {
		t.Fatalf("host plan %+v: want shop_b with its verified query", hp)
	}
	if !strings.HasPrefix(hp.Next, "A verified query matches: call run_verified_query ") || len(hp.Unmatched) == 0 {
		t.Errorf("next %q (unmatched %q): want the verified call first, before the notice of the unmatched word", hp.Next, hp.Unmatched)
	}
}
