package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sqlitecopy"

	_ "github.com/duckdb/duckdb-go/v2" // reads the DuckDB copy for the hand-written gold SQL
	_ "github.com/jackc/pgx/v5/stdlib" // reads the PostgreSQL copy likewise
)

// engineCase is one engine's `serve --db` arguments and the rows its own
// hand-written SQL returns, for hostplan_engines.test.mjs.
type engineCase struct {
	Engine string   `json:"engine"`
	Args   []string `json:"args"`
	Rows   [][]any  `json:"rows"`
}

// The hand-written SQL per dialect for the host's plan in
// hostplan_engines.test.mjs: the months of 2025 with the three highest
// revenues, ties for third kept, as 'YYYY-MM' labels; a date bound covers
// its whole last day.
var engineGold = map[string]string{
	"sqlite": `WITH m AS (SELECT strftime('%Y-%m', InvoiceDate) AS month, SUM(Total) AS revenue FROM Invoice
	            WHERE InvoiceDate >= '2025-01-01' AND InvoiceDate < '2026-01-01' GROUP BY strftime('%Y-%m', InvoiceDate)),
	          r AS (SELECT month, revenue, RANK() OVER (ORDER BY revenue DESC) AS rk FROM m)
	          SELECT month, revenue FROM r WHERE rk <= 3`,
	"duckdb": `WITH m AS (SELECT strftime(InvoiceDate, '%Y-%m') AS month, SUM(Total) AS revenue FROM Invoice
	            WHERE InvoiceDate >= TIMESTAMP '2025-01-01' AND InvoiceDate < TIMESTAMP '2026-01-01' GROUP BY 1),
	          r AS (SELECT month, revenue, RANK() OVER (ORDER BY revenue DESC) AS rk FROM m)
	          SELECT month, CAST(revenue AS DOUBLE) FROM r WHERE rk <= 3`,
	"postgres": `WITH m AS (SELECT to_char("InvoiceDate", 'YYYY-MM') AS month, SUM("Total") AS revenue FROM "Invoice"
	            WHERE "InvoiceDate" >= TIMESTAMP '2025-01-01' AND "InvoiceDate" < TIMESTAMP '2026-01-01' GROUP BY 1),
	          r AS (SELECT month, revenue, RANK() OVER (ORDER BY revenue DESC) AS rk FROM m)
	          SELECT month, CAST(revenue AS double precision) FROM r WHERE rk <= 3`,
}

// TestHostPlanAcrossEnginesWithTypeScriptSDK: a host's plan that names an
// output alias in group_by, keeps ties in a top 3 and labels months as
// 'YYYY-MM' text answers through run_plan, over stdio with the official
// TypeScript SDK and `serve --db` (no YAML), with the rows the hand-written
// SQL gives on SQLite, DuckDB and PostgreSQL (Chinook copied into each).
func TestHostPlanAcrossEnginesWithTypeScriptSDK(t *testing.T) {
	f := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()
	dir := t.TempDir()
	sqlitePath := filepath.Join(f.chinook, "chinook.sqlite")
	duckPath := filepath.Join(dir, "chinook.duckdb")
	if err := sqlitecopy.CopySQLiteToDuckDB(ctx, sqlitePath, duckPath); err != nil {
		t.Fatal(err)
	}
	cases := []engineCase{
		{Engine: "sqlite", Args: []string{"--db", sqlitePath}},
		{Engine: "duckdb", Args: []string{"--db", duckPath}},
	}
	dbs := map[string]*sql.DB{}
	for driver, dsn := range map[string]string{"sqlite": "file:" + filepath.ToSlash(sqlitePath) + "?mode=ro", "duckdb": duckPath + "?access_mode=READ_ONLY"} {
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[driver] = db
	}
	if adminDSN := os.Getenv("NL2SQL_TEST_PG_DSN"); adminDSN != "" {
		// a database of its own: the server reads every schema of its
		// database, and other packages' tests make schemas in the shared one
		dbName := fmt.Sprintf("e2e_engines_%d", time.Now().UnixNano()%1e9)
		admin, err := sql.Open("pgx", adminDSN)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Close() })
		if _, err := admin.Exec(`CREATE DATABASE "` + dbName + `"`); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if _, err := admin.Exec(`DROP DATABASE "` + dbName + `" WITH (FORCE)`); err != nil {
				t.Errorf("drop database %s: %v", dbName, err)
			}
		})
		u, err := url.Parse(adminDSN)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + dbName
		dsn := u.String()
		if err := sqlitecopy.CopySQLiteToPostgres(ctx, sqlitePath, dsn, "chinook"); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() }) // before the drop: cleanups run last in first out
		db.SetMaxOpenConns(1)            // search_path is per connection
		if _, err := db.Exec(`SET search_path TO chinook`); err != nil {
			t.Fatal(err)
		}
		dbs["postgres"] = db
		// the test cluster's only role is its superuser: allowed, and still
		// read-only (READ ONLY transactions)
		cases = append(cases, engineCase{Engine: "postgres", Args: []string{"--db", "chinook=" + dsn, "--allow-writable-role"}})
	} else {
		skipOrFail(t, "NL2SQL_TEST_PG_DSN is not set: the PostgreSQL case needs a server (source .ci/pg.sh && pg_start)")
	}
	for i, c := range cases {
		_, rows, err := query(dbs[c.Engine], engineGold[c.Engine])
		if err != nil {
			t.Fatalf("%s gold SQL: %v", c.Engine, err)
		}
		if len(rows) <= 3 {
			t.Fatalf("%s gold SQL returned %d rows: the fixture no longer has a tie for third place", c.Engine, len(rows))
		}
		cases[i].Rows = rows
	}
	fixture := filepath.Join(dir, "engines.json")
	b, _ := json.Marshal(cases)
	if err := os.WriteFile(fixture, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(f.env(filepath.Join(dir, "storage")), "NL2SQL_ENGINES_FIXTURE="+fixture)
	run(ctx, t, f.root, env, f.node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "hostplan_engines.test.mjs"))
}
