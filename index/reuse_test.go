package index

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// tableFetches counts value fetches per table.
type tableFetches struct {
	values.Source
	n     map[string]int
	extra map[string][]string // table.column → values added to what the database holds
}

func (c tableFetches) DistinctValues(ctx context.Context, s, t, col string, limit int) ([]string, error) {
	c.n[t]++
	vs, err := c.Source.DistinctValues(ctx, s, t, col, limit)
	return append(vs, c.extra[t+"."+col]...), err
}

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	NGram
	n *int
}

func (e countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	*e.n += len(texts)
	return e.NGram.Embed(ctx, texts)
}

// A change to one table of a catalog must not cost a whole rebuild: the
// next build reads again from the database only the values of the table
// that changed and embeds only the texts that changed, and the index it
// stores is the one a build from nothing makes. A table that changed
// (here its comment and its profile: a new artist was added) has its
// values read again, so a stale value list is never served.
func TestRebuildReadsOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	var embedded int
	emb := countingEmbedder{n: &embedded}
	first := tableFetches{sourceValues(src), map[string]int{}, nil}
	a, opA, err := OpenOrBuild(ctx, dir, snap, emb, Options{Values: first})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if !opA.Built || opA.Reused != (Reused{}) {
		t.Fatalf("first build: %+v", opA)
	}
	if first.n["Artist"] == 0 || len(first.n) < 3 {
		t.Fatalf("the fixture must fetch values of Artist and of other tables: %v", first.n)
	}
	total := 0
	for _, n := range first.n {
		total += n
	}

	changed, _ := chinookSnapshot(t)
	artist := slices.IndexFunc(changed.Tables, func(t schema.Table) bool { return t.Name == "Artist" })
	changed.Tables[artist].Comment = "who recorded the albums"
	for i := range changed.Tables[artist].Columns {
		if p := changed.Tables[artist].Columns[i].Profile; p != nil {
			p.DistinctCount++
		}
	}
	polka := map[string][]string{"Artist.Name": {"Polka Kings"}}
	embedded = 0
	second := tableFetches{sourceValues(src), map[string]int{}, polka}
	b, opB, err := OpenOrBuild(ctx, dir, changed, emb, Options{Values: second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !opB.Built {
		t.Fatalf("changed snapshot not rebuilt: %+v", opB)
	}
	if want := map[string]int{"Artist": first.n["Artist"]}; !reflect.DeepEqual(second.n, want) {
		t.Errorf("rebuild read values of %v from the database, want only %v", second.n, want)
	}
	if want := total - first.n["Artist"]; opB.Reused.Columns != want {
		t.Errorf("rebuild reused %d columns' values, want %d", opB.Reused.Columns, want)
	}
	if embedded != 1 {
		t.Errorf("rebuild embedded %d texts, want 1 (Artist's table document)", embedded)
	}
	if !slices.ContainsFunc(b.vals.Docs(), func(d values.Doc) bool { return d.Value == "Polka Kings" }) {
		t.Error("the changed table's new value is not indexed: its old value list was reused")
	}

	fresh, err := Build(ctx, changed, nil, Options{Values: tableFetches{sourceValues(src), map[string]int{}, polka}})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if a, b := selections(t, fresh, changed), selections(t, b, changed); string(a) != string(b) {
		t.Errorf("the reusing build retrieves differently from a build from nothing:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(valueTexts(fresh), valueTexts(b)) {
		t.Error("the reusing build indexed other values than a build from nothing")
	}
	for i := range fresh.vecs {
		if !slices.Equal(fresh.vecs[i].Pos, b.vecs[i].Pos) || !slices.Equal(fresh.vecs[i].Val, b.vecs[i].Val) {
			t.Fatalf("vector %d differs from a build from nothing", i)
		}
	}
}

func valueTexts(ix *Index) []values.Doc {
	var out []values.Doc
	for _, d := range ix.vals.Docs() {
		out = append(out, values.Doc{Table: d.Table, Col: d.Col, Value: d.Value})
	}
	return out
}
