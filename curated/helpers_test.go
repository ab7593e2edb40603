package curated

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/internal/config"
)

// sharedPath is a file of the shared test inputs (../../shared from here).
func sharedPath(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		skipOrFail(t, "shared inputs not found: %s (%v)", rel, err)
	}
	return p
}

// skipOrFail skips for a missing prerequisite, or fails when CI is set.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but "+format, args...)
	}
	t.Skipf(format, args...)
}

// hostileLines returns the SQL of the hostile curated lines for engines.
func hostileLines(t *testing.T, engines ...string) []string {
	t.Helper()
	f, err := os.Open(sharedPath(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		engine, sql, ok := strings.Cut(sc.Text(), "\t")
		if ok && (engine == "any" || strings.Contains(strings.Join(engines, ","), engine)) {
			out = append(out, sql)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d hostile lines for %v", len(out), engines)
	}
	return out
}

// execDB runs statements through an ordinary writable connection of
// driver ("sqlite" or "duckdb"), to build fixtures.
func execDB(t *testing.T, driver, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open(driver, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func fileSum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func dirListing(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		fi, _ := e.Info()
		b.WriteString(e.Name() + " " + fi.ModTime().Format(time.RFC3339Nano) + "\n")
	}
	return b.String()
}

func statString(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "absent"
	}
	return fi.ModTime().String() + " " + fi.Mode().String()
}

// vq is one verified query for a test file.
type vq map[string]any

// writeSetup writes nl2sql.yaml (body; its curated: key is added) and
// curated.yaml (settings plus queries) into a temporary directory and
// loads the config.
func writeSetup(t *testing.T, body string, settings map[string]any, queries ...vq) *config.Config {
	t.Helper()
	dir := t.TempDir()
	doc := map[string]any{"verified_queries": queries}
	for k, v := range settings {
		doc[k] = v
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "curated.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body+"\ncurated: curated.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// pgReadOnlyDSN creates a fresh PostgreSQL database with setup run in it
// and a login role that may only read it; both are dropped with the test.
// It needs NL2SQL_TEST_PG_DSN (a superuser); without it the test skips,
// or fails when CI is set.
func pgReadOnlyDSN(t *testing.T, setup ...string) string {
	t.Helper()
	super := os.Getenv("NL2SQL_TEST_PG_DSN")
	if super == "" {
		skipOrFail(t, "NL2SQL_TEST_PG_DSN is not set (source .ci/pg.sh && pg_start)")
	}
	b := make([]byte, 6)
	rand.Read(b)
	suffix := hex.EncodeToString(b)
	db, role, pw := "nl2sql_cur_"+suffix, "nl2sql_cur_ro_"+suffix, "pw_"+suffix
	pgExec(t, super, "CREATE DATABASE "+db+" STRATEGY FILE_COPY", "CREATE ROLE "+role+" LOGIN PASSWORD '"+pw+"'")
	t.Cleanup(func() { pgExec(t, super, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)", "DROP ROLE IF EXISTS "+role) })
	pgExec(t, withDSN(super, "", "", db), append(setup, "GRANT USAGE ON SCHEMA public TO "+role, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+role)...)
	return withDSN(super, role, pw, db)
}

func pgExec(t *testing.T, dsn string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	for _, s := range stmts {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func withDSN(dsn, user, password, db string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if user != "" {
			u.User = url.UserPassword(user, password)
		}
		u.Path = "/" + db
		return u.String()
	}
	s := dsn + " dbname=" + db
	if user != "" {
		s += " user=" + user + " password=" + password
	}
	return s
}

func pgScalar(t *testing.T, dsn, q string) string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var s string
	if err := c.QueryRow(ctx, q).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
