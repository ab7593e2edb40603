package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// TestFlavorPicksTheDialect: a postgres datasource with flavor cockroachdb
// renders CockroachDB's SQL (a unit interval instead of make_interval); the
// same database without a flavor renders PostgreSQL's. Runs on a real
// PostgreSQL through a role that may only SELECT.
func TestFlavorPicksTheDialect(t *testing.T) {
	r := pgtest.NewReader(t, "flavor")
	pgtest.Exec(t, r.Super, `CREATE TABLE ledger (id BIGINT PRIMARY KEY, booked DATE NOT NULL)`,
		`GRANT SELECT ON ledger TO `+r.Role)
	u := r.URL

	rp, err := llm.OpenReplay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	plan := []byte(`{"select":[{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"month"},{"kind":"literal","value":2},{"kind":"column","table":"l","column":"booked"}]},"alias":"due"}],"from":[{"table":"ledger","alias":"l"}]}`)
	cases := []struct{ flavor, dialect, want, not string }{
		{"cockroachdb", "cockroachdb", "INTERVAL '1 month'", "make_interval"},
		{"", "postgres", "make_interval", "INTERVAL '1 month'"},
	}
	for _, c := range cases {
		e, err := New(Options{Open: openAdapter, Planner: rp, Datasources: []DatasourceSpec{{ID: "ledger", Engine: "postgres", DSN: u.String(), Flavor: c.flavor}}})
		if err != nil {
			t.Fatal(err)
		}
		pc, err := e.CheckPlan(context.Background(), "ledger", plan, "")
		e.Close()
		if err != nil {
			t.Fatalf("flavor %q: %v", c.flavor, err)
		}
		if pc.Dialect != c.dialect || !strings.Contains(pc.SQL, c.want) || strings.Contains(pc.SQL, c.not) {
			t.Errorf("flavor %q: dialect %q, SQL:\n%s", c.flavor, pc.Dialect, pc.SQL)
		}
	}
}
