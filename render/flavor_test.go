package render_test

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

func TestLookupFlavor(t *testing.T) {
	cases := []struct {
		name, flavor, want string
		ok                 bool
	}{
		{"postgres", "", "postgres", true},
		{"sqlite", "", "sqlite", true},
		{"postgres", "cockroachdb", "cockroachdb", true},
		{"postgres", "CockroachDB", "cockroachdb", true},
		{"postgres", "yugabytedb", "postgres", true},
		{"postgres", "citus", "postgres", true},
		{"postgres", "tidb", "", false},
		{"sqlite", "cockroachdb", "", false},
		{"oracle", "", "", false},
	}
	for _, c := range cases {
		d, ok := render.LookupFlavor(c.name, c.flavor)
		if ok != c.ok || (ok && d.Name() != c.want) {
			t.Errorf("LookupFlavor(%q, %q) = %v, %v; want %q, %v", c.name, c.flavor, d, ok, c.want, c.ok)
		}
	}
	for _, f := range render.Flavors {
		if _, ok := render.LookupFlavor("postgres", f); !ok {
			t.Errorf("flavor %q listed but not looked up", f)
		}
	}
}

// TestCockroachDBAvoidsWhatItLacks: no golden rendering for CockroachDB
// calls make_interval or puts a NULLS clause inside OVER (…).
func TestCockroachDBAvoidsWhatItLacks(t *testing.T) {
	inWindow := regexp.MustCompile(`OVER \([^)]*NULLS (FIRST|LAST)`)
	for _, g := range goldenPlans(t) {
		s, err := render.SQL(g.v.Plan, render.CockroachDB{}, goldenOpts)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if strings.Contains(s, "make_interval") || inWindow.MatchString(s) {
			t.Errorf("%s: CockroachDB SQL uses what CockroachDB lacks:\n%s", g.name, s)
		}
	}
}

// TestFlavorsMeanTheSameOnPostgres runs every golden plan rendered for
// PostgreSQL and for each flavor's dialect on a real PostgreSQL holding the
// golden rows and requires the same rows: the CockroachDB forms are valid
// PostgreSQL with the same meaning. (Whether CockroachDB itself accepts
// them is untested: none can be installed here.)
func TestFlavorsMeanTheSameOnPostgres(t *testing.T) {
	db := openPostgres(t, goldenCatalog, goldenRows)
	pg, _ := render.Lookup("postgres")
	for _, g := range goldenPlans(t) {
		want := runOn(t, db, g.name, g.v.Plan, pg)
		for _, f := range render.Flavors {
			d, _ := render.LookupFlavor("postgres", f)
			if got := runOn(t, db, g.name, g.v.Plan, d); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s: %s rows differ from postgres:\n%v\n%v", g.name, f, got, want)
			}
		}
	}
}

func runOn(t *testing.T, db *sql.DB, name string, q *planast.Query, d render.Dialect) [][]string {
	t.Helper()
	s, err := render.SQL(q, d, goldenOpts)
	if err != nil {
		t.Fatalf("%s/%s: %v", name, d.Name(), err)
	}
	rows, err := queryAll(db, s)
	if err != nil {
		t.Fatalf("%s/%s: %v\n%s", name, d.Name(), err, s)
	}
	return rows
}

var pgTypes = map[planast.Type]string{
	planast.TypeInteger: "BIGINT", planast.TypeDecimal: "NUMERIC", planast.TypeFloat: "DOUBLE PRECISION", planast.TypeText: "TEXT",
	planast.TypeBoolean: "BOOLEAN", planast.TypeDate: "DATE", planast.TypeTimestamp: "TIMESTAMP", planast.TypeBlob: "BYTEA",
}

// openPostgres creates a fresh schema (pgtest.Schema) holding cat's
// tables and rows and returns a one-connection pool whose search_path is
// that schema.
func openPostgres(t *testing.T, cat memCatalog, rows map[string][]string) *sql.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig(pgtest.Schema(t, pgtest.DSN(t)))
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	var stmts []string
	for _, tb := range cat {
		var cols []string
		for _, c := range tb.Columns {
			cols = append(cols, render.QuoteIdent(c.Name)+" "+pgTypes[c.Type])
		}
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (%s)", render.QuoteIdent(tb.Name), strings.Join(cols, ", ")))
		for _, r := range rows[tb.Name] {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%s)", render.QuoteIdent(tb.Name), r))
		}
	}
	t.Cleanup(func() { db.Close() })
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return db
}
