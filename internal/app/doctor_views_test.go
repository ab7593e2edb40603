package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a view is hidden from a role unless the role reads whole
// every table the view reads, and the view is then simply missing from
// what the role is shown. The administrator, finding it gone, looked for
// a typo in a pattern that had none, or widened the role to the whole
// datasource. Doctor names, per datasource and role, how many views the
// rule hides and which table each needs, the first few only; a view the
// role names itself in allow, or one over what the role reads whole, is
// not listed.
func TestDoctorNamesViewsTheViewRuleHides(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, carrier TEXT, amount REAL)",
		"CREATE TABLE shipments (id INTEGER PRIMARY KEY, origin_depot INTEGER, status TEXT)",
		"CREATE TABLE drivers (id INTEGER PRIMARY KEY, full_name TEXT, depot INTEGER)",
		"CREATE TABLE depots (id INTEGER PRIMARY KEY, city TEXT)",
		`CREATE VIEW "carrier revenue" AS SELECT carrier, SUM(amount) AS revenue FROM invoices GROUP BY carrier`,
		"CREATE VIEW delivered AS SELECT id, origin_depot FROM shipments WHERE status = 'delivered'",
		"CREATE VIEW driver_names AS SELECT id, full_name FROM drivers",
		"CREATE VIEW depot_cities AS SELECT city FROM depots",
		"CREATE VIEW delivered_by_city AS SELECT d.city, COUNT(*) AS n FROM delivered v JOIN depots d ON d.id = v.origin_depot GROUP BY d.city")
	cfg := filepath.Join(t.TempDir(), "nl2sql.yaml")
	if err := os.WriteFile(cfg, []byte(`storage: {path: .nl2sql}
datasources:
  - {id: freight, engine: sqlite, path: `+db+`}
roles:
  clerk:
    allow: [freight]
    deny: [freight.main.invoices, freight.main.drivers.full_name]
    row_filters:
      - {table: freight.main.shipments, where: "origin_depot = :depot"}
  reporting:
    allow: [freight.main.carrier revenue, freight.main.depots, freight.main.depot_cities]
    deny: [freight.main.invoices]
users:
  - {name: bob, roles: [clerk], attributes: {depot: 1}}
  - {name: rita, roles: [reporting]}
local_user: bob
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Doctor(context.Background(), cfg, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// four tables and five views: "9 tables" made the user count tables
	// they never made
	if !strings.Contains(out.String(), "4 tables, 5 views") {
		t.Errorf("want the datasource's tables and views counted apart in\n%s", out.String())
	}
	want := `views of freight hidden from role clerk: ok (4 views: main.carrier revenue needs main.invoices, main.delivered needs main.shipments, main.delivered_by_city needs main.shipments, and 1 more; `
	if !strings.Contains(out.String(), want) {
		t.Errorf("want the line starting %q in\n%s", want, out.String())
	}
	if strings.Contains(out.String(), "role reporting") || strings.Count(out.String(), "hidden from role") != 1 {
		t.Errorf("a role whose views are all readable is listed:\n%s", out.String())
	}
}
