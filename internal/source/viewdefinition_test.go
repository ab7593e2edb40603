package source

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// A view's definition is recorded as its query, whatever the engine
// wraps it in (SQLite's and DuckDB's CREATE VIEW … AS, a column list,
// DuckDB's final ';'), and one of pages is cut, saying so: the snapshot
// carries what the view covers without carrying megabytes.
func TestViewDefinitionRecordsTheQuery(t *testing.T) {
	long := "SELECT " + strings.Repeat("a + ", 1000) + "1 AS x FROM t"
	for _, c := range []struct{ name, sql, want string }{
		{"sqlite", "CREATE VIEW [km per driver] \nAS\nSELECT d.id, SUM(t.km) AS km FROM trips t WHERE t.status = 'done' GROUP BY d.id",
			"SELECT d.id, SUM(t.km) AS km FROM trips t WHERE t.status = 'done' GROUP BY d.id"},
		{"duckdb", "CREATE VIEW driver_km AS SELECT 1 AS x FROM trips;", "SELECT 1 AS x FROM trips"},
		{"column list", `CREATE TEMP VIEW IF NOT EXISTS v("a AS b", c) AS SELECT 1, 2`, "SELECT 1, 2"},
		{"postgres", " SELECT d.id\n   FROM trips d;", "SELECT d.id\n   FROM trips d"},
		{"does not scan", "CREATE VIEW v AS SELECT 'open", "CREATE VIEW v AS SELECT 'open"},
		{"long", "CREATE VIEW v AS " + long, long[:schema.MaxDefinitionBytes] + "…"},
	} {
		snap := &schema.Snapshot{Tables: []schema.Table{{Schema: "main", Name: "v", Kind: schema.KindView}}}
		ViewDefinition(snap, "main", "v", c.sql)
		if got := snap.Tables[0].Definition; got != c.want {
			t.Errorf("%s: definition %q, want %q", c.name, got, c.want)
		}
	}
}
