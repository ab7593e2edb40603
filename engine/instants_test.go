package engine

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a PostgreSQL timestamptz stored as '2023-01-15 10:00:00+01'
// came back from run_plan as "2023-01-15 09:00:00", the instant in UTC
// without its marker, beside a plain timestamp written the same way: a
// reader takes it for a local time an hour early. The result keeps the
// marker the adapter writes (+00:00); a plain timestamp has none.
func TestPlanResultKeepsTheUTCMarkerOfInstants(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE c (id int PRIMARY KEY, created_at timestamptz, local_time timestamp)",
		"INSERT INTO c VALUES (1, '2023-01-15 10:00:00+01', '2023-01-15 10:00:00')")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"created_at"}},{"expr":{"kind":"column","table":"c","column":"local_time"}},{"expr":{"kind":"func","name":"MAX","args":[{"kind":"column","table":"c","column":"created_at"}]},"alias":"latest"}],"from":[{"table":"c","alias":"c"}],"group_by":[{"kind":"column","table":"c","column":"created_at"},{"kind":"column","table":"c","column":"local_time"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0]; got[0] != "2023-01-15 09:00:00+00:00" || got[1] != "2023-01-15 10:00:00" || got[2] != "2023-01-15 09:00:00+00:00" {
		t.Errorf("rows %v: want the instant with +00:00, the local time without", res.Rows)
	}
}
