package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// The threat: a PostgreSQL database gains a second schema holding a table
// of a name the first already has (billing.customers beside customers).
// Before, every plan naming customers failed as naming "no table" (the
// list it offered left both out), the host's schema context showed two
// bare customers lines a planner could not tell apart, and a table in
// another schema could not be named the way the listings wrote it.
func TestTablesOfOneNameInTwoSchemas(t *testing.T) {
	r := pgtest.NewReader(t, "twoschemas")
	billing, hr := r.Name+"_billing", r.Name+"_hr"
	pgtest.Exec(t, r.Super,
		`CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT)`,
		`INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Edsger')`,
		`CREATE SCHEMA `+billing, `CREATE SCHEMA `+hr,
		`CREATE TABLE `+billing+`.customers (id INTEGER PRIMARY KEY, label TEXT)`,
		`INSERT INTO `+billing+`.customers VALUES (10, 'billing only')`,
		`CREATE TABLE `+billing+`.invoices (invoice_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (customer_id), amount NUMERIC(10,2))`,
		`INSERT INTO `+billing+`.invoices VALUES (100, 1, 12.50)`,
		`CREATE TABLE `+billing+`.staff (id INTEGER)`, `CREATE TABLE `+hr+`.staff (id INTEGER)`,
		`GRANT USAGE ON SCHEMA `+billing+`, `+hr+` TO `+r.Role,
		`GRANT SELECT ON ALL TABLES IN SCHEMA `+r.Name+`, `+billing+`, `+hr+` TO `+r.Role)
	t.Cleanup(func() { pgtest.Exec(t, r.Super, `DROP SCHEMA `+billing+` CASCADE`, `DROP SCHEMA `+hr+` CASCADE`) })
	e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
		Datasources: []DatasourceSpec{{ID: "shop", Engine: "postgres", DSN: r.URL.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	count := func(table string) (any, error) {
		res, err := e.RunPlan(ctx, "shop", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"`+table+`","alias":"c"}]}`))
		if err != nil {
			return nil, err
		}
		return res.Rows[0][0], nil
	}

	// the name a plan wrote before the second schema came still means
	// the table of the connection's schema
	if n, err := count("customers"); err != nil || n != int64(3) {
		t.Fatalf("customers: %v %v, want the default schema's 3 rows", n, err)
	}
	// the other one, named as the listings name it
	if n, err := count(billing + ".customers"); err != nil || n != int64(1) {
		t.Fatalf("%s.customers: %v %v, want 1", billing, n, err)
	}
	// a name two other schemas hold, none the default: refused, naming both
	_, err = count("staff")
	if !isIssue(err, "AMBIGUOUS_TABLE") || !strings.Contains(err.Error(), billing+".staff") || !strings.Contains(err.Error(), hr+".staff") {
		t.Fatalf("staff: %v, want AMBIGUOUS_TABLE naming both", err)
	}

	// search_schema's names are the ones plans use
	sel, err := e.Search(ctx, "shop", "customer label")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ts := range sel.Tables {
		names = append(names, sel.PlanName(ts))
	}
	if !slices.Contains(names, billing+".customers") || !slices.Contains(names, "customers") {
		t.Errorf("search names %v, want %s.customers and customers", names, billing)
	}

	// the host's context tells the two apart, in the names plans use
	res, err := e.Ask(ctx, AskRequest{Question: "customers and their invoices amount"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	sc := res.HostPlan.SchemaContext
	for _, want := range []string{"\ncustomers (3 rows)", billing + ".customers (1 rows)", billing + ".invoices (1 rows)", "-> customers.customer_id"} {
		if !strings.Contains("\n"+sc, want) {
			t.Errorf("the context lacks %q:\n%s", want, sc)
		}
	}
}
