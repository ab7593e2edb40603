package index

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNGramDeterministic(t *testing.T) {
	ctx := context.Background()
	texts := []string{"InvoiceLine", "invoice line", "How many singers do we have?", ""}
	a, err := NGram{}.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NGram{Dims: DefaultDims}.Embed(ctx, texts)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two NGram embedders disagree")
	}
	for i, v := range a[:3] {
		if len(v) != DefaultDims {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		if n := math.Sqrt(dot(v, v)); math.Abs(n-1) > 1e-6 {
			t.Errorf("vector %d has norm %v, want 1", i, n)
		}
	}
	if !reflect.DeepEqual(a[0], a[1]) {
		t.Error(`"InvoiceLine" and "invoice line" should embed alike`)
	}
	if dot(a[3], a[3]) != 0 {
		t.Error("empty text should embed to the zero vector")
	}
	if got := (NGram{Dims: 512}).Name(); got != "ngram-3-5-512" {
		t.Errorf("Name = %q", got)
	}
	c, _ := NGram{Dims: 512}.Embed(ctx, texts[:1])
	if len(c[0]) != 512 {
		t.Errorf("Dims 512 gave %d", len(c[0]))
	}
}

func TestNGramSimilarity(t *testing.T) {
	vs, _ := NGram{}.Embed(context.Background(), []string{"singers", "singer", "stadium", "Nationality", "nation"})
	if !(dot(vs[0], vs[1]) > dot(vs[0], vs[2])) {
		t.Error("singers should be closer to singer than to stadium")
	}
	if !(dot(vs[3], vs[4]) > dot(vs[3], vs[2])) {
		t.Error("Nationality should be closer to nation than to stadium")
	}
}

func TestNGramCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (NGram{}).Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// fakeEmbedder returns canned vectors, for embedAll's checks.
type fakeEmbedder struct {
	out [][]float32
	err error
}

func (f fakeEmbedder) Embed(context.Context, []string) ([][]float32, error) { return f.out, f.err }
func (f fakeEmbedder) Name() string                                         { return "fake" }

func TestEmbedAllChecks(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		e    fakeEmbedder
		want string
	}{
		{"count", fakeEmbedder{out: [][]float32{{1}}}, "got 1 vectors for 2 texts"},
		{"ragged", fakeEmbedder{out: [][]float32{{1, 0}, {1}}}, "has 1 dimensions, want 2"},
		{"empty", fakeEmbedder{out: [][]float32{{}, {}}}, "has 0 dimensions"},
		{"error", fakeEmbedder{err: errors.New("boom")}, "embed with fake: boom"},
	}
	for _, tt := range tests {
		_, err := embedAll(ctx, tt.e, []string{"a", "b"}, 0)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	vs, err := embedAll(ctx, fakeEmbedder{out: [][]float32{{3, 4}, {0, 2}}}, []string{"a", "b"}, 0)
	if err != nil || vs[0][0] != 0.6 || vs[0][1] != 0.8 || vs[1][1] != 1 {
		t.Errorf("embedAll = %v, %v; want normalised vectors", vs, err)
	}
}

// TestBuildWithOtherEmbedder: an index built with an embedder other than
// the built-in one names it, so it is never queried with another.
func TestBuildWithOtherEmbedder(t *testing.T) {
	ix, err := Build(context.Background(), smallSnapshot(), fixedEmbedder{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Embedder() != "fixed" {
		t.Errorf("Embedder = %q", ix.Embedder())
	}
}

// fixedEmbedder embeds every text as the same unit vector, so vector
// ranking is all ties.
type fixedEmbedder struct{}

func (fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0, 0}
	}
	return out, nil
}
func (fixedEmbedder) Name() string { return "fixed" }
