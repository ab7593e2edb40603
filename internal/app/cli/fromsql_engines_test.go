package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a person lifting x AT TIME ZONE z against a SQLite file was told
// the plan language cannot express "function TIMEZONE", a function they
// never wrote. The error says SQLite's SQL has no time-zone conversion,
// under the same code, and gives the plan's AT_TIME_ZONE, which SQLite
// runs, to write instead.
func TestFromSQLAtTimeZoneOnSQLiteSaysSQLiteHasNoZones(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(t.TempDir(), "state")
	_, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "SELECT InvoiceDate AT TIME ZONE 'Europe/Paris' AS t FROM Invoice")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != CodePlanUnsupported {
		t.Fatalf("AT TIME ZONE on SQLite: %v, want %s", err, CodePlanUnsupported)
	}
	for _, want := range []string{"AT TIME ZONE is not available", "SQLite has no time-zone conversion"} {
		if !strings.Contains(ee.Msg, want) {
			t.Errorf("message %q, want it to say %q", ee.Msg, want)
		}
	}
	if strings.Contains(ee.Msg, "TIMEZONE") || strings.Contains(ee.Msg, "cannot express") {
		t.Errorf("message %q names a function the SQL does not hold, or blames the plan language", ee.Msg)
	}
	if !strings.Contains(ee.Hint, `"name":"AT_TIME_ZONE"`) {
		t.Errorf("hint %q, want what to do instead", ee.Hint)
	}
}

// Threat: CURRENT_DATE - 7, valid PostgreSQL and DuckDB SQL for a week
// ago, was refused, and a user converting a report had to rewrite it by
// hand. It lifts as DATE_ADD, and the lifted plan returns on each engine
// the rows the SQL itself returns there (kept in a table by the engine,
// read back through the same command, so both print alike).
func TestFromSQLDateMinusDaysRunsAsTheSQLDoes(t *testing.T) {
	queries := []string{
		"SELECT COUNT(*) AS n FROM bookings WHERE day >= CURRENT_DATE - 7",
		"SELECT COUNT(*) AS n FROM bookings WHERE starts_at >= CURRENT_DATE - 7",
		"SELECT id, day - shift_days AS d, 3 + day AS e FROM bookings ORDER BY id",
	}
	table := "CREATE TABLE bookings (id integer PRIMARY KEY, day date, starts_at timestamptz, shift_days integer)"
	wants := func() []string {
		var out []string
		for i, q := range queries {
			out = append(out, fmt.Sprintf("CREATE TABLE want%d AS %s", i, q))
		}
		return out
	}
	engines := []struct {
		name string
		db   func(t *testing.T) []string // the --db flags
	}{
		{"postgres", func(t *testing.T) []string {
			dsn := pgtest.Schema(t, pgtest.DSN(t))
			pgtest.Exec(t, dsn, append([]string{table,
				"INSERT INTO bookings SELECT i, CURRENT_DATE - i, (CURRENT_DATE - i) + time '12:00', i % 5 FROM generate_series(0, 20) i"}, wants()...)...)
			return []string{"--db", dsn, "--allow-writable-role"}
		}},
		{"duckdb", func(t *testing.T) []string {
			path := sourcetest.DuckTempDB(t, append([]string{table,
				"INSERT INTO bookings SELECT i, CURRENT_DATE - i::INTEGER, ((CURRENT_DATE - i::INTEGER) + TIME '12:00')::TIMESTAMPTZ, i % 5 FROM range(0, 21) t(i)"}, wants()...)...)
			return []string{"--db", path}
		}},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			db := append(e.db(t), "--storage", filepath.Join(t.TempDir(), "state"))
			rows := func(sql string) string {
				t.Helper()
				plan, err := runCLI(append([]string{"plan", "from-sql"}, append(db, sql)...)...)
				if err != nil {
					t.Fatalf("plan from-sql %q: %v", sql, err)
				}
				out, err := runCLI(append([]string{"plan", "run", "--json"}, append(db, plan)...)...)
				var r struct {
					Rows json.RawMessage `json:"rows"`
				}
				if err != nil || json.Unmarshal([]byte(out), &r) != nil {
					t.Fatalf("plan run of %q: %v\n%s", sql, err, out)
				}
				return string(r.Rows)
			}
			for i, q := range queries {
				order := ""
				if strings.Contains(q, "ORDER BY id") {
					order = " ORDER BY id"
				}
				if got, want := rows(q), rows(fmt.Sprintf("SELECT * FROM want%d%s", i, order)); got != want || len(want) < 10 {
					t.Errorf("%s: the lifted plan returns %s, the SQL %s", q, got, want)
				}
			}
		})
	}
}
