package semantic_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/source"
)

// A database without declared foreign keys: Suggest proposes the
// relationship its names and values support, drafts labels for the status
// codes, and the draft loads as it is.
func TestSuggest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, tier INTEGER)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, status TEXT, note TEXT, qty INTEGER)",
		"CREATE TABLE audit (id INTEGER PRIMARY KEY, customer_id INTEGER)",
		"INSERT INTO customer VALUES (1, 'Ann', 1), (2, 'Bob', 2), (3, 'Cy', 1)",
		// qty takes few values too, but a quantity is no code to explain
		"INSERT INTO orders VALUES (1, 1, 'A', 'first', 2), (2, 2, 'C', 'second', 12), (3, 2, 'A', 'third', 2)",
		"INSERT INTO audit VALUES (1, 7), (2, 8)", // values not found in customer.id
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "shop", path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	snap := snapshotOf(t, path)
	q := func(ctx context.Context, sql string) ([][]any, error) {
		r, err := src.Query(ctx, sql, nil, 10)
		if err != nil {
			return nil, err
		}
		return r.Rows, nil
	}
	s, err := semantic.Suggest(ctx, snap, q)
	if err != nil {
		t.Fatal(err)
	}
	y := string(s.YAML)
	for _, want := range []string{"from: orders.customer_id", "to: customer.id", "100% of the distinct values are found in customer.id",
		`values: {"1": "", "2": ""}`, `values: {A: "", C: ""}`} {
		if !strings.Contains(y, want) {
			t.Errorf("draft lacks %q:\n%s", want, y)
		}
	}
	if strings.Contains(y, "audit.customer_id") || strings.Contains(y, "note\n            values") || strings.Contains(y, `"12": ""`) {
		t.Errorf("draft proposes what the data does not support:\n%s", y)
	}
	if s.Tables != 3 || s.Relationships != 1 || s.Labelled != 2 {
		t.Errorf("counts %+v", s)
	}
	f, err := semantic.Parse("draft.yaml", s.YAML)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := semantic.Check(f, snap); err != nil {
		t.Errorf("the draft does not load: %v", err)
	}
	again, _ := semantic.Suggest(ctx, snap, q)
	if string(again.YAML) != y {
		t.Error("Suggest is not deterministic")
	}
}
