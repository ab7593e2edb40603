package index

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
)

// Embedder turns texts into vectors. Embed returns one vector per text, in
// the texts' order, all of one length; the index L2-normalises them itself,
// so an embedder need not. Name identifies the model (and its dimensions
// where they vary) so an index built with one embedder is never queried
// with another. Implementations: NGram (built in, offline), and
// index/embed's Ollama and OpenAI.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Name() string
}

// DefaultDims is the vector length of the default NGram embedder.
const DefaultDims = 1024

// NGram is the built-in embedder: no model, no network, deterministic.
// Each text is split into words (see lex.SplitName: "InvoiceLine" and
// "invoice line" embed alike), folded (lower case, no diacritics), and every word
// padded as "<word>" contributes its character 3-, 4- and 5-grams; each
// n-gram is hashed (FNV-1a, 32 bits) to one of Dims buckets with a sign from
// a second hash bit, weighted 1 + 0.25·(n−3) so longer shared pieces count
// more. The vector is L2-normalised; an empty text is the zero vector.
//
// Cosine similarity of two such vectors measures shared spelling, which
// catches plurals ("singers" ~ "singer"), word-form changes ("nationality"
// ~ "nation") and split-or-joined names; it knows no synonyms.
type NGram struct {
	Dims int // ≤ 0 means DefaultDims
}

// Name is "ngram-3-5-<dims>".
func (e NGram) Name() string { return fmt.Sprintf("ngram-3-5-%d", e.dims()) }

func (e NGram) dims() int {
	if e.Dims <= 0 {
		return DefaultDims
	}
	return e.Dims
}

// Embed never fails except when ctx has ended.
func (e NGram) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = e.vector(t)
	}
	return out, nil
}

func (e NGram) vector(text string) []float32 {
	v := make([]float32, e.dims())
	e.add(v, text, nil)
	normalize(v)
	return v
}

// add adds text's n-gram weights to v (of e.dims() entries), always in
// the same order, so the sums have the same bits. When touched is set it
// appends the bucket of every n-gram (repeats included): a caller that
// reuses v knows which entries to read and clear.
func (e NGram) add(v []float32, text string, touched *[]uint32) {
	d := uint32(len(v))
	var ends [64]int // the padded word's rune ends, in bytes
	for _, w := range lex.SplitWords(text) {
		p := "<" + lex.Fold(w) + ">" // valid UTF-8: Fold writes runes
		// A rune n-gram is a byte range of p; hashing it in place spares
		// a string per n-gram.
		off := ends[:0]
		for i := range p {
			if i > 0 {
				off = append(off, i)
			}
		}
		off = append(off, len(p))
		for n := 3; n <= 5; n++ {
			weight := float32(1 + 0.25*float64(n-3))
			for i := 0; i+n <= len(off); i++ {
				start := 0
				if i > 0 {
					start = off[i-1]
				}
				s := fnv32a(p[start:off[i+n-1]])
				if s&(1<<31) != 0 {
					v[s%d] -= weight
				} else {
					v[s%d] += weight
				}
				if touched != nil {
					*touched = append(*touched, s%d)
				}
			}
		}
	}
}

// fnv32a is the 32-bit FNV-1a hash of s.
func fnv32a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// normalize scales v to unit length in place (the zero vector stays zero).
func normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(ss))
	for i := range v {
		v[i] *= inv
	}
}

// dot is the inner product; for unit vectors it is the cosine. It sums in
// float64 in index order, so the same vectors give the same bits.
func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// embedAll embeds texts in batches of batch, checking shapes: one vector
// per text, all of one non-zero length. Vectors come back normalised.
func embedAll(ctx context.Context, e Embedder, texts []string, batch int) ([][]float32, error) {
	if batch <= 0 {
		batch = 128
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		end := min(start+batch, len(texts))
		vs, err := e.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("embed with %s: %w", e.Name(), err)
		}
		if len(vs) != end-start {
			return nil, fmt.Errorf("embed with %s: got %d vectors for %d texts", e.Name(), len(vs), end-start)
		}
		out = append(out, vs...)
	}
	dim := -1
	for i, v := range out {
		if dim < 0 {
			dim = len(v)
		}
		if len(v) == 0 || len(v) != dim {
			return nil, fmt.Errorf("embed with %s: vector %d has %d dimensions, want %d", e.Name(), i, len(v), dim)
		}
		normalize(v)
	}
	return out, nil
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
