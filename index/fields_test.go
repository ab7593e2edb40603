package index

import (
	"context"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// TestDocumentFieldsSearchable: every field a schema document and a
// value document are indexed under holds their words, so the bleve
// documents built from structs carry the field names the searches ask.
func TestDocumentFieldsSearchable(t *testing.T) {
	snap := smallSnapshot()
	snap.Tables[0].Comment = "people who buy"
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, c := range []struct{ field, word, doc string }{
		{"name", "customer", "t/00000"},
		{"text", "people", "t/00000"},
		{"cols", "country", "t/00000"},
		{"table", "customer", "c/00000/00002"},
		{"samples", "france", "c/00000/00002"},
	} {
		q := bleve.NewMatchQuery(c.word)
		q.SetField(c.field)
		res, err := ix.text.Search(bleve.NewSearchRequestOptions(q, 100, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range res.Hits {
			found = found || h.ID == c.doc
		}
		if !found {
			t.Errorf("field %s: %q does not find %s (hits %v)", c.field, c.word, c.doc, res.Hits)
		}
	}
	hits, err := ix.vals.Match(context.Background(), "orders from France", func(int, int) bool { return true }, false)
	if err != nil || len(hits) == 0 || hits[0].Value != "France" {
		t.Errorf("value match = %v, %v; want France", hits, err)
	}
}
