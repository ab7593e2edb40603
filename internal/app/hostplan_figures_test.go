package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/tools"
)

// wideNouns × 10 make the 200 tables of makeWideSQLite.
var wideNouns = []string{"customers", "orders", "products", "shipments", "invoices", "payments", "employees", "stores",
	"suppliers", "returns", "reviews", "campaigns", "warehouses", "carriers", "regions", "categories", "coupons",
	"subscriptions", "tickets", "sessions"}

// makeWideSQLite writes a 200-table SQLite database: tables NOUN_N (20
// nouns × 10), each with an id, a name, a status of four values, an
// amount, a date and a foreign key to the table before it, 20 rows each.
func makeWideSQLite(t testing.TB, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	prev := ""
	for i := range 10 {
		for _, noun := range wideNouns {
			name := fmt.Sprintf("%s_%d", noun, i)
			fk := ""
			if prev != "" {
				fk = fmt.Sprintf(", parent_id INTEGER REFERENCES %s(id)", prev)
			}
			stmts := []string{fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT, amount REAL, created_at TEXT%s)", name, fk)}
			for r := 1; r <= 20; r++ {
				parent := ""
				if prev != "" {
					parent = fmt.Sprintf(", %d", (r%5)+1)
				}
				stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%d, '%s %d', '%s', %d.5, '2024-%02d-%02d'%s)",
					name, r, noun, r, []string{"open", "closed", "pending", "cancelled"}[r%4], r*7, r%12+1, r%28+1, parent))
			}
			for _, s := range stmts {
				if _, err := tx.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			prev = name
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestHostPlanFigures measures the plan-it-yourself result: o200k_base
// tokens of its structured JSON and of its text part, and the in-process
// latency of Engine.Ask (median of 15 warm runs; the first, cold run opens
// the datasource and builds its index), for three unrecorded questions
// on Chinook and on a generated 200-table SQLite database. It always
// checks that the result stays within the retrieval budget on the wide
// database; the table is printed with -v:
//
//	go test ./internal/app -run TestHostPlanFigures -v -count=1
func TestHostPlanFigures(t *testing.T) {
	chinook, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	wide := filepath.Join(t.TempDir(), "wide.sqlite")
	makeWideSQLite(t, wide)
	sets := []struct {
		db        string
		questions []string
	}{
		{chinook, []string{"Which employees were hired after 2003?", "What is the average track length per genre?", "Which customers bought more than 40 tracks?"}},
		{wide, []string{"How many shipments_3 are there per status?", "What was the total amount of payments_7 per month in 2024?", "Which suppliers_2 have the highest amount and what is their parent?"}},
	}
	t.Logf("%-8s | %-66s | %10s | %10s | %7s | %9s | %9s", "db", "question", "json tok", "text tok", "ctx tok", "cold ms", "median ms")
	for _, set := range sets {
		cfg, err := ConfigFromDatabases([]string{set.db}, DatabaseOptions{Storage: filepath.Join(t.TempDir(), "state")})
		if err != nil {
			t.Fatal(err)
		}
		a, err := OpenConfig(cfg, quiet, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range set.questions {
			ctx := context.Background()
			t0 := time.Now()
			res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: q})
			cold := time.Since(t0)
			if err != nil || res.HostPlan == nil {
				t.Fatalf("%q: %v", q, err)
			}
			var runs []time.Duration
			for range 15 {
				t0 := time.Now()
				if _, err := a.Engine.Ask(ctx, engine.AskRequest{Question: q}); err != nil {
					t.Fatal(err)
				}
				runs = append(runs, time.Since(t0))
			}
			slices.Sort(runs)
			b, _ := json.Marshal(res)
			jt, tt := schemactx.ContextTokens(string(b)), schemactx.ContextTokens(tools.AskText(res))
			hp := res.HostPlan
			if set.db == wide && (len(hp.ContextTables) > 8 || hp.ContextTokens > index.DefaultWholeSchemaTokens || hp.VisibleTables != 200 ||
				hp.OmittedTables != 200-len(hp.ContextTables) || !strings.Contains(tools.AskText(res), "tables you may see are not in schema_context")) {
				t.Errorf("%q: the context is not budgeted: %d tables, %d tokens", q, len(hp.ContextTables), hp.ContextTokens)
			}
			t.Logf("%-8s | %-66s | %10d | %10d | %7d | %9.1f | %9.1f", strings.TrimSuffix(filepath.Base(set.db), ".sqlite"), q, jt, tt, hp.ContextTokens,
				float64(cold.Microseconds())/1000, float64(runs[len(runs)/2].Microseconds())/1000)
			if os.Getenv("NL2SQL_FIGURES_DUMP") != "" {
				t.Logf("%s", tools.AskText(res))
			}
		}
		a.Close()
	}
}
