package index

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

var chinookPath = filepath.Join("..", "examples", "chinook", "chinook.sqlite")

// chinookSnapshot opens the bundled Chinook read-only, snapshots and
// profiles it. Each call returns a fresh snapshot and an open source.
func chinookSnapshot(t testing.TB) (*schema.Snapshot, *sqlite.SQLite) {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "chinook", chinookPath, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Profile(ctx, snap); err != nil {
		t.Fatal(err)
	}
	return snap, src
}

func sourceValues(src *sqlite.SQLite) values.Source {
	return values.FromQuery(func(ctx context.Context, sql string, n int) ([][]any, bool, error) {
		r, err := src.Query(ctx, sql, nil, n)
		if err != nil {
			return nil, false, err
		}
		return r.Rows, r.Truncated, nil
	})
}

var (
	chinookOnce sync.Once
	chinookIx   *Index
	chinookSnap *schema.Snapshot
	chinookErr  error
)

// chinook is one shared Chinook index (values from the database, the
// default NGram embedder). Tests must not close it.
func chinook(t testing.TB) (*Index, *schema.Snapshot) {
	t.Helper()
	chinookOnce.Do(func() {
		ctx := context.Background()
		src, err := sqlite.OpenSQLite(ctx, "chinook", chinookPath, source.Options{})
		if err != nil {
			chinookErr = err
			return
		}
		defer src.Close()
		snap, err := src.Snapshot(ctx)
		if err == nil {
			err = src.Profile(ctx, snap)
		}
		if err != nil {
			chinookErr = err
			return
		}
		chinookSnap = snap
		chinookIx, chinookErr = Build(ctx, snap, nil, Options{Values: sourceValues(src)})
	})
	if chinookErr != nil {
		t.Fatal(chinookErr)
	}
	return chinookIx, chinookSnap
}

// retrieveOnly is a budget with the whole-schema rule off.
var retrieveOnly = Budget{WholeSchemaTokens: -1}

func tableNames(sel *Selection) []string {
	var out []string
	for _, t := range sel.Tables {
		out = append(out, t.Name)
	}
	return out
}

// smallSnapshot is a four-table shop: customer ← orders ← items → product.
func smallSnapshot() *schema.Snapshot {
	col := func(name string, typ planast.Type, samples ...any) schema.Column {
		c := schema.Column{Name: name, Type: typ}
		if len(samples) > 0 {
			c.Profile = &schema.ColumnProfile{DistinctCount: int64(len(samples)), SampleValues: samples, AllValues: true}
		}
		return c
	}
	fk := func(c, table, ref string) schema.ForeignKey {
		return schema.ForeignKey{Columns: []string{c}, RefSchema: "main", RefTable: table, RefColumns: []string{ref}}
	}
	return &schema.Snapshot{Datasource: "shop", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		{Schema: "main", Name: "customer", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("name", planast.TypeText), col("country", planast.TypeText, "France", "USA")}},
		{Schema: "main", Name: "items", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("order_id", planast.TypeInteger), col("product_id", planast.TypeInteger), col("qty", planast.TypeInteger)},
			ForeignKeys: []schema.ForeignKey{fk("order_id", "orders", "id"), fk("product_id", "product", "id")}},
		{Schema: "main", Name: "orders", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("customer_id", planast.TypeInteger), col("total", planast.TypeDecimal), col("status", planast.TypeText, "open", "shipped")},
			ForeignKeys: []schema.ForeignKey{fk("customer_id", "customer", "id")}},
		{Schema: "main", Name: "product", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("name", planast.TypeText), col("category", planast.TypeText, "Heavy Metal", "Jazz")}},
	}}
}
