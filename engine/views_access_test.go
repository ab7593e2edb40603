package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a view reads its tables whatever a role may read of them.
// A role denied invoices read the invoice sums of a view over it, a role
// whose row filter keeps its depot's shipments counted every depot's
// through a view, and a hidden column came back through a view naming
// it. Such views are hidden from the role as the tables are, unless its
// allow names the view itself; a view over what the role reads whole
// stays readable.
func TestViewsDoNotShowWhatTheirTablesHide(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, carrier TEXT, amount REAL)",
		"INSERT INTO invoices VALUES (1, 'Blitz', 100), (2, 'Blitz', 50), (3, 'Comet', 20)",
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, origin_depot INTEGER, status TEXT)",
		"INSERT INTO shipments VALUES (1, 1, 'delivered'), (2, 2, 'delivered'), (3, 2, 'delivered')",
		"CREATE TABLE drivers (id INTEGER PRIMARY KEY, full_name TEXT, depot INTEGER)",
		"INSERT INTO drivers VALUES (1, 'Ana Diaz', 1)",
		"CREATE TABLE depots (id INTEGER PRIMARY KEY, city TEXT)",
		"INSERT INTO depots VALUES (1, 'Lyon'), (2, 'Gent')",
		`CREATE VIEW "carrier revenue" AS SELECT carrier, SUM(amount) AS revenue FROM [invoices] GROUP BY carrier`,
		"CREATE VIEW delivered AS SELECT id, origin_depot FROM shipments WHERE status = 'delivered'",
		"CREATE VIEW driver_names AS SELECT id, full_name FROM drivers",
		"CREATE VIEW depot_cities AS SELECT city FROM depots",
		"CREATE VIEW delivered_by_city AS SELECT d.city, COUNT(*) AS n FROM delivered v JOIN depots d ON d.id = v.origin_depot GROUP BY d.city")
	pol := policyFromYAML(t, `datasources:
  - {id: freight, engine: sqlite, path: `+db+`}
roles:
  clerk:
    allow: [freight]
    deny: [freight.main.invoices, freight.main.drivers.full_name]
    row_filters:
      - {table: freight.main.shipments, where: "origin_depot = :depot"}
  reporting:
    allow: [freight.main.carrier revenue, freight.main.depots]
    deny: [freight.main.invoices]
users:
  - {name: bob, roles: [clerk], attributes: {depot: 1}}
  - {name: rita, roles: [reporting]}
local_user: bob
`)
	e, err := New(Options{Open: openAdapter, Policy: pol, Datasources: []DatasourceSpec{{ID: "freight", Engine: "sqlite", Path: db}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	bob, _ := pol.ForUser("bob")
	rita, _ := pol.ForUser("rita")
	count := func(table string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"v"}]}`)
	}
	for _, c := range []struct {
		who   string
		ctx   context.Context
		table string
		rows  string // "" when the view must be hidden
	}{
		{"bob", WithCaller(context.Background(), bob), "carrier revenue", ""},
		{"bob", WithCaller(context.Background(), bob), "delivered", ""},
		{"bob", WithCaller(context.Background(), bob), "delivered_by_city", ""}, // through a view of a filtered table
		{"bob", WithCaller(context.Background(), bob), "driver_names", ""},
		{"bob", WithCaller(context.Background(), bob), "depot_cities", "[[2]]"},
		{"bob", WithCaller(context.Background(), bob), "shipments", "[[1]]"}, // the table itself, filtered
		{"rita", WithCaller(context.Background(), rita), "carrier revenue", "[[2]]"},
	} {
		res, err := e.RunPlan(c.ctx, "freight", count(c.table))
		switch {
		case c.rows == "" && err == nil:
			t.Errorf("%s read %q: %v", c.who, c.table, res.Rows)
		case c.rows == "" && (AsError(err).Code != CodePlanInvalid || len(AsError(err).Issues) == 0 || AsError(err).Issues[0].Code != "TABLE_NOT_FOUND"):
			t.Errorf("%s reading %q: %v, want TABLE_NOT_FOUND as for a table that does not exist", c.who, c.table, err)
		case c.rows != "" && err != nil:
			t.Errorf("%s reading %q: %v", c.who, c.table, err)
		case c.rows != "" && fmt.Sprint(res.Rows) != c.rows:
			t.Errorf("%s reading %q: rows %v, want %s", c.who, c.table, res.Rows, c.rows)
		}
	}
}

// PostgreSQL says what a view reads (its rewrite rule's dependencies), and
// DuckDB's views are read from their SQL: a view over a denied table is
// hidden on both, one over an allowed table is not.
func TestViewsOverDeniedTablesOnEveryEngine(t *testing.T) {
	r := pgtest.NewReader(t, "views")
	pgtest.Exec(t, r.Super, `CREATE TABLE invoices (id INTEGER, amount NUMERIC)`, `INSERT INTO invoices VALUES (1, 10)`,
		`CREATE TABLE depots (id INTEGER, city TEXT)`, `INSERT INTO depots VALUES (1, 'Lyon')`,
		// the view's SQL names no table the way the policy does: only the
		// engine's dependencies tell
		`CREATE VIEW revenue AS SELECT SUM(amount) AS total FROM invoices`, `CREATE VIEW cities AS SELECT city FROM depots`,
		`GRANT SELECT ON invoices, depots, revenue, cities TO `+r.Role)
	duck := sourcetest.DuckTempDB(t, "CREATE TABLE invoices (id INTEGER, amount DOUBLE)", "INSERT INTO invoices VALUES (1, 10)",
		"CREATE TABLE depots (id INTEGER, city VARCHAR)", "INSERT INTO depots VALUES (1, 'Lyon')",
		"CREATE VIEW revenue AS SELECT SUM(amount) AS total FROM main.invoices", "CREATE VIEW cities AS SELECT city FROM depots")
	pol := policyFromYAML(t, `datasources:
  - {id: pg, engine: postgres, dsn: "`+r.URL.String()+`"}
  - {id: duck, engine: duckdb, path: `+duck+`}
roles:
  clerk:
    allow: [pg, duck]
    deny: [pg.*.invoices, duck.main.invoices]
users:
  - {name: bob, roles: [clerk]}
local_user: bob
`)
	e, err := New(Options{Open: openAdapter, Policy: pol, Datasources: []DatasourceSpec{
		{ID: "pg", Engine: "postgres", DSN: r.URL.String()}, {ID: "duck", Engine: "duckdb", Path: duck}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	bob, _ := pol.ForUser("bob")
	ctx := WithCaller(context.Background(), bob)
	for _, ds := range []string{"pg", "duck"} {
		if _, err := e.RunPlan(ctx, ds, []byte(`{"select":[{"expr":{"kind":"column","table":"v","column":"total"},"alias":"t"}],"from":[{"table":"revenue","alias":"v"}]}`)); err == nil {
			t.Errorf("%s: the view over a denied table was read", ds)
		}
		if _, err := e.RunPlan(ctx, ds, []byte(`{"select":[{"expr":{"kind":"column","table":"v","column":"city"},"alias":"c"}],"from":[{"table":"cities","alias":"v"}]}`)); err != nil {
			t.Errorf("%s: the view over an allowed table: %v", ds, err)
		}
	}
}
