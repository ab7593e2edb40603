package semantic_test

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// rankOf is the 1-based rank of table (column "": the table document) in
// the fused ranking for question, 0 when absent.
func rankOf(t *testing.T, snap *schema.Snapshot, question, table, column string) int {
	t.Helper()
	ix, err := index.Build(context.Background(), snap, nil, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	rs, err := ix.Explain(context.Background(), question, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Table == table && r.Column == column {
			return i + 1
		}
	}
	return 0
}

// Retrieval indexes the layer: a metric's name finds its table, a synonym
// its column, a value label its code's column; each ranks higher with the
// layer than without.
func TestRetrievalIndexesTheLayer(t *testing.T) {
	snap := chinook(t)
	l, err := semantic.Load(chinookFile, "semantic.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	rich := l.Apply(snap)
	cases := []struct{ question, table, column string }{
		{"net revenue per month", "InvoiceLine", ""},
		{"which market buys the most", "Invoice", "BillingCountry"},
		{"how many protected video files are there", "Track", "MediaTypeId"},
	}
	for _, tc := range cases {
		off, on := rankOf(t, snap, tc.question, tc.table, tc.column), rankOf(t, rich, tc.question, tc.table, tc.column)
		t.Logf("%q → %s.%s: rank %d without the layer, %d with it", tc.question, tc.table, tc.column, off, on)
		if on == 0 || on > 3 || (off != 0 && on >= off) {
			t.Errorf("%q: %s.%s ranks %d with the layer (%d without)", tc.question, tc.table, tc.column, on, off)
		}
	}
}
