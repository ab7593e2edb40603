package index

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
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

// TestOllamaWire speaks Ollama's POST /api/embed: {"model", "input": [..]}
// in, {"model", "embeddings": [[..]..]} out.
func TestOllamaWire(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got = nil
		json.Unmarshal(b, &got)
		if got["model"] == "missing" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"model \"missing\" not found, try pulling it first"}`)
			return
		}
		io.WriteString(w, `{"model":"nomic-embed-text","embeddings":[[0.1,0.2,0.3],[0.4,0.5,0.6]],"total_duration":1}`)
	}))
	defer srv.Close()
	e, err := NewOllama(RemoteOptions{BaseURL: srv.URL, Model: "nomic-embed-text", APIKey: "k", Dimensions: 3})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{0.1, 0.2, 0.3}, {0.4, 0.5, 0.6}}; !reflect.DeepEqual(vs, want) {
		t.Errorf("vectors = %v, want %v", vs, want)
	}
	if got["model"] != "nomic-embed-text" || !reflect.DeepEqual(got["input"], []any{"a", "b"}) || got["dimensions"] != float64(3) {
		t.Errorf("request = %v", got)
	}
	if e.Name() != "ollama:nomic-embed-text:3" {
		t.Errorf("Name = %q", e.Name())
	}
	bad, _ := NewOllama(RemoteOptions{BaseURL: srv.URL, Model: "missing", APIKey: "k"})
	if _, err := bad.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing model: err = %v", err)
	}
	// An index built with it ranks with it.
	ix, err := Build(context.Background(), smallSnapshot(), fixedEmbedder{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Embedder() != "fixed" {
		t.Errorf("Embedder = %q", ix.Embedder())
	}
}

// TestOpenAIWire speaks POST /v1/embeddings: {"model", "input": [..],
// "encoding_format": "float"} in, {"data": [{"index", "embedding"}..]} out,
// in any order.
func TestOpenAIWire(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got = nil
		json.Unmarshal(b, &got)
		io.WriteString(w, `{"object":"list","model":"text-embedding-3-small","usage":{"prompt_tokens":2,"total_tokens":2},
			"data":[{"object":"embedding","index":1,"embedding":[0.5,0.5]},{"object":"embedding","index":0,"embedding":[1,0]}]}`)
	}))
	defer srv.Close()
	e, err := NewOpenAI(RemoteOptions{BaseURL: srv.URL + "/v1", Model: "text-embedding-3-small", APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{1, 0}, {0.5, 0.5}}; !reflect.DeepEqual(vs, want) {
		t.Errorf("vectors = %v, want %v (input order)", vs, want)
	}
	if got["model"] != "text-embedding-3-small" || !reflect.DeepEqual(got["input"], []any{"first", "second"}) || got["encoding_format"] != "float" {
		t.Errorf("request = %v", got)
	}
	if _, ok := got["dimensions"]; ok {
		t.Error("dimensions sent though unset")
	}
	bad, _ := NewOpenAI(RemoteOptions{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "wrong"})
	if _, err := bad.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("bad key: err = %v", err)
	}
}

func TestRemoteOptionsChecked(t *testing.T) {
	for _, o := range []RemoteOptions{{Model: ""}, {Model: "m", BaseURL: "ftp://x"}, {Model: "m", BaseURL: "http://"}} {
		if _, err := NewOllama(o); err == nil {
			t.Errorf("NewOllama(%+v) accepted", o)
		}
		if _, err := NewOpenAI(o); err == nil {
			t.Errorf("NewOpenAI(%+v) accepted", o)
		}
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
