package index

import (
	"context"
	"reflect"
	"testing"
)

func docsOf(rs []ranked) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.doc)
	}
	return out
}

func TestCosineRankTiesByID(t *testing.T) {
	q := []float32{1, 0}
	vecs := [][]float32{
		{0, 1},     // 0: cosine 0
		{1, 0},     // 1: 1
		{0.6, 0.8}, // 2: 0.6
		{1, 0},     // 3: 1, ties with 1
		{0.6, 0.8}, // 4: ties with 2
		{1, 0},     // 5: denied
	}
	ok := []bool{true, true, true, true, true, false}
	got := docsOf(cosineRank(q, sparseAll(vecs), ok))
	if want := []int{1, 3, 2, 4, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("cosineRank = %v, want %v", got, want)
	}
	// Float noise below 1e-9 does not break a tie.
	vecs[3] = []float32{1, 1e-12}
	if got := docsOf(cosineRank(q, sparseAll(vecs), ok)); got[0] != 1 || got[1] != 3 {
		t.Errorf("near-tie order = %v", got)
	}
}

func sparseAll(vs [][]float32) []vector {
	out := make([]vector, len(vs))
	for i, v := range vs {
		out[i] = sparse(v)
	}
	return out
}

func TestRRF(t *testing.T) {
	a := []ranked{{doc: 1}, {doc: 2}, {doc: 3}}
	b := []ranked{{doc: 3}, {doc: 1}, {doc: 4}}
	got := rrf(60, []float64{1, 1}, a, b)
	// 1: 1/61+1/62, 3: 1/63+1/61, 2: 1/62, 4: 1/63.
	if want := []int{1, 3, 2, 4}; !reflect.DeepEqual(docsOf(got), want) {
		t.Errorf("rrf order = %v, want %v", docsOf(got), want)
	}
	if want := round9(1.0/61 + 1.0/62); got[0].score != want {
		t.Errorf("rrf score = %v, want %v", got[0].score, want)
	}
	// Equal fused scores: by document.
	got = rrf(60, []float64{1, 1}, []ranked{{doc: 9}, {doc: 5}}, []ranked{{doc: 5}, {doc: 9}})
	if want := []int{5, 9}; !reflect.DeepEqual(docsOf(got), want) {
		t.Errorf("tie order = %v, want %v", docsOf(got), want)
	}
	// Weights: the second list dominates.
	got = rrf(60, []float64{0.1, 1}, a, b)
	if got[0].doc != 3 {
		t.Errorf("weighted top = %d, want 3", got[0].doc)
	}
	// A zero weight removes a list's documents' advantage, not the documents.
	if got := rrf(60, []float64{1, 0}, a, b); len(got) != 4 || got[3].doc != 4 {
		t.Errorf("zero weight = %v", got)
	}
}

func TestPlainWord(t *testing.T) {
	for name, want := range map[string]bool{"name": true, "Name": true, "first_name": false, "FirstName": false, "A2": false, "NAME": false, "": false} {
		if got := plainWord(name); got != want {
			t.Errorf("plainWord(%q) = %v", name, got)
		}
	}
}

func TestMentionRank(t *testing.T) {
	ix, err := Build(context.Background(), smallSnapshot(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	acc := ix.access(nil)
	name := func(r ranked) string {
		d := ix.docs[r.doc]
		t := ix.snap.Tables[d.table]
		if d.col < 0 {
			return t.Name
		}
		return t.Name + "." + t.Columns[d.col].Name
	}
	var got []string
	for _, r := range ix.mentionRank("sum of orders.total by customer_id; product id", acc.doc) {
		got = append(got, name(r))
	}
	// orders.total is qualified (4); customer_id is shared by no other
	// table (3); "product id" is a two-word phrase (2) of items.product_id;
	// plain "total" alone would not count.
	if want := []string{"orders.total", "orders.customer_id", "items.product_id"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mentions = %v, want %v", got, want)
	}
}
