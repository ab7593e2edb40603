package sqlitecopy

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// keysOf lists the tables of snap with their column names, primary key
// and foreign keys, schema names left out.
func keysOf(snap *schema.Snapshot) map[string]string {
	m := map[string]string{}
	for _, t := range snap.Tables {
		if t.Kind != schema.KindTable {
			continue
		}
		var cols []string
		for _, c := range t.Columns {
			cols = append(cols, c.Name)
		}
		var fks []string
		for _, fk := range t.ForeignKeys {
			b, _ := json.Marshal([]any{fk.Columns, fk.RefTable, fk.RefColumns})
			fks = append(fks, string(b))
		}
		slices.Sort(fks) // engines list foreign keys in different orders
		b, _ := json.Marshal([]any{cols, t.PrimaryKey, fks})
		m[t.Name] = string(b)
	}
	return m
}

// checkCopy compares a copy with its SQLite original: the same tables,
// columns and keys (except the foreign keys in dropped, "table" → count),
// the same row counts, and the same answers to queries.
func checkCopy(t *testing.T, orig *sqlite.SQLite, cp sourcetest.DataSource, dropped map[string]int, queries ...string) {
	t.Helper()
	ctx := context.Background()
	so, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := cp.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range dropped {
		tb, _ := so.Lookup("", name)
		tb.ForeignKeys = tb.ForeignKeys[:len(tb.ForeignKeys)-n]
	}
	ko, kc := keysOf(so), keysOf(sc)
	if !reflect.DeepEqual(ko, kc) {
		t.Errorf("tables and keys\n got %v\nwant %v", kc, ko)
	}
	for _, tb := range so.Tables {
		if tb.Kind != schema.KindTable {
			continue
		}
		queries = append(queries, "SELECT count(*) FROM "+source.QuoteIdent(tb.Name))
	}
	for _, q := range queries {
		want, err := orig.Query(ctx, q, nil, 100)
		if err != nil {
			t.Errorf("sqlite: %s: %v", q, err)
			continue
		}
		got, err := cp.Query(ctx, q, nil, 100)
		if err != nil {
			t.Errorf("copy: %s: %v", q, err)
			continue
		}
		w, _ := json.Marshal(want.Rows)
		g, _ := json.Marshal(got.Rows)
		if string(w) != string(g) {
			t.Errorf("%s:\n got %s\nwant %s", q, g, w)
		}
	}
}

// chinookQueries answer the same on every engine.
var chinookQueries = []string{
	`SELECT "InvoiceId", "Total", "BillingCountry" FROM "Invoice" ORDER BY "InvoiceId" LIMIT 5`,
	`SELECT count(*), count(DISTINCT "Composer") FROM "Track"`,
	`SELECT "Name" FROM "Artist" WHERE "ArtistId" IN (1, 2, 3) ORDER BY 1`,
	`SELECT "LastName", "ReportsTo" FROM "Employee" ORDER BY "EmployeeId"`,
	`SELECT "AlbumId", count(*) FROM "Track" GROUP BY "AlbumId" ORDER BY 2 DESC, 1 LIMIT 3`,
}

func TestCopySQLiteToDuckDB(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, db string
		dropped  map[string]int
		queries  []string
	}{
		{"fixture", sourcetest.FixtureDB(t), nil, []string{
			`SELECT "select", "unit price", "größe", "客户", "Group", "a""b" FROM "order" ORDER BY 1`,
			`SELECT oi."ItemID", o."客户" FROM "Order Items" AS oi JOIN "order" AS o ON o."select" = oi."OrderSelect" ORDER BY 1`,
			`SELECT id, name, code, big, day FROM n ORDER BY id`,
		}},
		{"chinook", sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"), nil, chinookQueries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "copy.duckdb")
			if err := CopySQLiteToDuckDB(ctx, tt.db, dst); err != nil {
				t.Fatal(err)
			}
			checkCopy(t, sourcetest.Open(t, sqlite.OpenSQLite, tt.db, source.Options{}), sourcetest.Open(t, duckdb.OpenDuckDB, dst, source.Options{}), tt.dropped, tt.queries...)
		})
	}
	// The fixture's exact decimals arrive as DECIMAL; DATE as DATE.
	dst := filepath.Join(t.TempDir(), "fixture.duckdb")
	if err := CopySQLiteToDuckDB(ctx, sourcetest.FixtureDB(t), dst); err != nil {
		t.Fatal(err)
	}
	d := sourcetest.Open(t, duckdb.OpenDuckDB, dst, source.Options{})
	snap, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := snap.Lookup("", "n")
	var types []string
	for _, c := range n.Columns {
		types = append(types, c.DeclaredType)
	}
	if want := []string{"BIGINT", "VARCHAR", "VARCHAR", "BIGINT", "DECIMAL(20,2)", "DATE"}; !reflect.DeepEqual(types, want) {
		t.Errorf("n types %v, want %v", types, want)
	}
	// An existing target is refused and left alone.
	if err := CopySQLiteToDuckDB(ctx, sourcetest.FixtureDB(t), dst); !errors.Is(err, errCopyTarget) {
		t.Errorf("copy onto an existing file: %v", err)
	}
	if _, err := os.Stat(dst); err != nil {
		t.Errorf("the existing file went: %v", err)
	}
}

func TestCopySQLiteToPostgres(t *testing.T) {
	ctx := context.Background()
	f := sourcetest.NewPGFixture(t)
	chinook := sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite")
	fixture := sourcetest.FixtureDB(t)
	if err := CopySQLiteToPostgres(ctx, fixture, f.Super, "public"); err != nil {
		t.Fatal(err)
	}
	sourcetest.PGExec(t, f.Super, `GRANT SELECT ON ALL TABLES IN SCHEMA public TO `+f.Role)
	fixtureQueries := []string{
		`SELECT "select", "unit price", "größe", "客户", "Group", "a""b" FROM "order" ORDER BY 1`,
		`SELECT oi."ItemID", o."客户" FROM "Order Items" AS oi JOIN "order" AS o ON o."select" = oi."OrderSelect" ORDER BY 1`,
		`SELECT id, name, code, big, day FROM n ORDER BY id`,
	}
	checkCopy(t, sourcetest.Open(t, sqlite.OpenSQLite, fixture, source.Options{}), sourcetest.Open(t, postgres.OpenPostgres, f.ReadOnly, source.Options{}), nil, fixtureQueries...)

	if err := CopySQLiteToPostgres(ctx, chinook, f.Super, "Chinook Schema"); err != nil {
		t.Fatal(err)
	}
	sourcetest.PGExec(t, f.Super, `GRANT USAGE ON SCHEMA "Chinook Schema" TO `+f.Role, `GRANT SELECT ON ALL TABLES IN SCHEMA "Chinook Schema" TO `+f.Role)
	chinookDSN := sourcetest.WithDSN(f.ReadOnly, "", "", f.DB) + "&search_path=" + `%22Chinook%20Schema%22`
	p := sourcetest.Open(t, postgres.OpenPostgres, chinookDSN, source.Options{})
	snap, err := p.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	chin := &schema.Snapshot{}
	for _, tb := range snap.Tables {
		if tb.Schema == "Chinook Schema" {
			for i := range tb.ForeignKeys {
				if tb.ForeignKeys[i].RefSchema != "Chinook Schema" {
					t.Errorf("%s references %s", tb.Name, tb.ForeignKeys[i].RefSchema)
				}
			}
			chin.Tables = append(chin.Tables, tb)
		}
	}
	checkCopy(t, sourcetest.Open(t, sqlite.OpenSQLite, chinook, source.Options{}), &snapshotOnly{p, chin}, nil, chinookQueries...)
	// A second copy into the same schema fails and leaves it as it was.
	if err := CopySQLiteToPostgres(ctx, fixture, f.Super, "public"); !errors.Is(err, errCopyTarget) {
		t.Errorf("copy onto existing tables: %v", err)
	}
	if n := sourcetest.PGQueryString(t, f.Super, `SELECT count(*)::text FROM "order"`); n != "2" {
		t.Errorf("order has %s rows", n)
	}
}

// snapshotOnly is an adapter whose Snapshot is fixed.
type snapshotOnly struct {
	*postgres.Postgres
	snap *schema.Snapshot
}

func (s *snapshotOnly) Snapshot(context.Context) (*schema.Snapshot, error) { return s.snap, nil }

// TestCopyShared copies Sakila and every Spider database to DuckDB and to
// PostgreSQL: every table arrives with its columns and rows; keys and
// views arrive where the engine takes them (the count is logged).
func TestCopyShared(t *testing.T) {
	ctx := context.Background()
	dbs, _ := filepath.Glob(filepath.Join(sourcetest.SharedPath(t, "eval/spider/database"), "*", "*.sqlite"))
	dbs = append(dbs, sourcetest.SharedPath(t, "data/sakila/sakila.sqlite"))
	var f *sourcetest.PGFixture
	if os.Getenv("NL2SQL_TEST_PG_DSN") != "" || os.Getenv("CI") != "" {
		f = sourcetest.NewPGFixture(t)
	}
	for _, db := range dbs {
		name := strings.TrimSuffix(filepath.Base(db), ".sqlite")
		t.Run(name, func(t *testing.T) {
			orig := sourcetest.Open(t, sqlite.OpenSQLite, db, source.Options{})
			dst := filepath.Join(t.TempDir(), name+".duckdb")
			if err := CopySQLiteToDuckDB(ctx, db, dst); err != nil {
				t.Fatal(err)
			}
			targets := map[string]sourcetest.DataSource{"duckdb": sourcetest.Open(t, duckdb.OpenDuckDB, dst, source.Options{})}
			if f != nil {
				if err := CopySQLiteToPostgres(ctx, db, f.Super, name); err != nil {
					t.Fatal(err)
				}
				sourcetest.PGExec(t, f.Super, `GRANT USAGE ON SCHEMA "`+name+`" TO `+f.Role, `GRANT SELECT ON ALL TABLES IN SCHEMA "`+name+`" TO `+f.Role)
				targets["postgres"] = &schemaFilter{sourcetest.Open(t, postgres.OpenPostgres, f.ReadOnly, source.Options{}), name}
			}
			so, err := orig.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for engine, cp := range targets {
				sc, err := cp.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var views, keys, origViews, origKeys int
				for _, tb := range so.Tables {
					if tb.Kind == schema.KindView {
						origViews++
						continue
					}
					origKeys += len(tb.ForeignKeys) + min(len(tb.PrimaryKey), 1)
					got, ok := sc.Lookup("", tb.Name)
					if !ok || got.Name != tb.Name || got.Kind != schema.KindTable {
						t.Errorf("%s: table %q missing", engine, tb.Name)
						continue
					}
					var cols, want []string
					for _, c := range got.Columns {
						cols = append(cols, c.Name)
					}
					for _, c := range tb.Columns {
						want = append(want, c.Name)
					}
					if !reflect.DeepEqual(cols, want) {
						t.Errorf("%s: %q columns %v, want %v", engine, tb.Name, cols, want)
					}
					keys += len(got.ForeignKeys) + min(len(got.PrimaryKey), 1)
					q := "SELECT count(*) FROM " + source.QuoteIdent(tb.Name)
					w, err1 := orig.Query(ctx, q, nil, 1)
					g, err2 := cp.Query(ctx, q, nil, 1)
					if err1 != nil || err2 != nil || !reflect.DeepEqual(w.Rows, g.Rows) {
						t.Errorf("%s: %s: %v %v, want %v %v", engine, q, g, err2, w, err1)
					}
				}
				for _, tb := range sc.Tables {
					if tb.Kind == schema.KindView {
						views++
					}
				}
				t.Logf("%-8s keys %d of %d, views %d of %d", engine, keys, origKeys, views, origViews)
			}
		})
	}
}

// schemaFilter shows one schema of a PostgreSQL database, searched first.
type schemaFilter struct {
	*postgres.Postgres
	schema string
}

func (s *schemaFilter) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	snap, err := s.Postgres.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	snap.Tables = slices.DeleteFunc(snap.Tables, func(t schema.Table) bool { return t.Schema != s.schema })
	return snap, nil
}

func (s *schemaFilter) Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error) {
	return s.Postgres.Query(ctx, strings.Replace(sql, " FROM ", " FROM "+source.QuoteIdent(s.schema)+".", 1), args, maxRows)
}
