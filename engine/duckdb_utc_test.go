package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a server on a machine whose clock is set to New York reads a
// DuckDB TIMESTAMPTZ by the machine's time zone. The value shows as
// 2025-01-01 04:30 (UTC) while its day, month and hour came out as
// 2024-12-31 and 23: a New Year's Eve payment counted in the wrong year,
// and the same plan giving another answer on a machine in UTC. Every
// part of an instant is read in UTC, as on PostgreSQL, whatever the
// machine's zone.
func TestDuckDBInstantsAreReadInUTCOnAnyMachine(t *testing.T) {
	t.Setenv("TZ", "America/New_York")
	db := sourcetest.DuckTempDB(t, "CREATE TABLE e (id INTEGER PRIMARY KEY, paid TIMESTAMPTZ)", "INSERT INTO e VALUES (1, '2024-12-31 23:30:00-05')")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "duckdb", Path: db, RowLimit: 1000})
	paid := `{"kind":"column","table":"x","column":"paid"}`
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[`+
		`{"expr":{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","value":"day"},`+paid+`]},"alias":"d"},`+
		`{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},`+paid+`]},"alias":"h"}],"from":[{"table":"e","alias":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[2025-01-01 4]]" {
		t.Errorf("day and hour of 2024-12-31 23:30-05 = %s, want 2025-01-01 and 4 (UTC)\n%s", got, res.SQL)
	}
}
