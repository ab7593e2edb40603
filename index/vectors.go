package index

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/nl2sql/nl2sql/index/datafile"
)

// vector is one document's unit-length embedding, kept sparse: the
// positions and values of its non-zero entries in increasing position.
// The built-in NGram embedder fills a few dozen of its 1,024 buckets per
// schema name, so a dense copy of 40,000 column documents would cost
// 160 MB where the sparse one costs a few; a dense embedder's vectors
// simply keep every entry.
type vector = datafile.Vector

// sparse keeps the non-zero entries of v.
func sparse(v []float32) vector {
	n := 0
	for _, x := range v {
		if x != 0 {
			n++
		}
	}
	s := vector{Pos: make([]uint32, 0, n), Val: make([]float32, 0, n)}
	for i, x := range v {
		if x != 0 {
			s.Pos = append(s.Pos, uint32(i))
			s.Val = append(s.Val, x)
		}
	}
	return s
}

// embedVectors is sparse(v) of every vector embedAll returns, and their
// length (0 when there are no texts). The built-in NGram embedder skips
// the dense vectors: a build made a 4 KB one per document only to keep a
// few dozen entries, about 170 MB of garbage on 2,000 tables, which the
// build's tight GC paid for (gc.go). Its vectors have the same bits.
func embedVectors(ctx context.Context, e Embedder, texts []string, batch int) ([]vector, int, error) {
	if len(texts) == 0 {
		return nil, 0, nil
	}
	if g, ok := e.(NGram); ok {
		vs, err := g.sparseVectors(ctx, texts)
		if err != nil {
			return nil, 0, fmt.Errorf("embed with %s: %w", e.Name(), err)
		}
		return vs, g.dims(), nil
	}
	dense, err := embedAll(ctx, e, texts, batch)
	if err != nil {
		return nil, 0, err
	}
	out := make([]vector, len(dense))
	for i, v := range dense {
		out[i] = sparse(v)
	}
	return out, len(dense[0]), nil
}

// sparseVectors is what sparse(v) keeps of each vector embedAll(e) makes
// (Embed normalises, embedAll normalises again), through one dense
// scratch vector whose touched entries alone are read and cleared.
func (e NGram) sparseVectors(ctx context.Context, texts []string) ([]vector, error) {
	scratch := make([]float32, e.dims())
	var touched []uint32
	out := make([]vector, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		touched = touched[:0]
		e.add(scratch, t, &touched)
		slices.Sort(touched)
		touched = slices.Compact(touched)
		out[i] = takeSparse(scratch, touched)
	}
	return out, nil
}

// takeSparse is sparse(v) after v is normalised twice, reading only the
// entries at pos (increasing, every non-zero entry of v among them),
// which it clears. Zero entries add nothing to normalize's sum, so
// summing the touched ones in position order gives the same bits.
func takeSparse(v []float32, pos []uint32) vector {
	for range 2 {
		var ss float64
		for _, p := range pos {
			ss += float64(v[p]) * float64(v[p])
		}
		if ss == 0 {
			break
		}
		inv := float32(1 / math.Sqrt(ss))
		for _, p := range pos {
			v[p] *= inv
		}
	}
	n := 0
	for _, p := range pos {
		if v[p] != 0 {
			n++
		}
	}
	s := vector{Pos: make([]uint32, 0, n), Val: make([]float32, 0, n)}
	for _, p := range pos {
		if v[p] != 0 {
			s.Pos = append(s.Pos, p)
			s.Val = append(s.Val, v[p])
		}
		v[p] = 0
	}
	return s
}

// dotSparse is dot(q, dense(v)): it sums the same non-zero products in
// the same position order, so the result has the same bits.
func dotSparse(q []float32, v vector) float64 {
	var s float64
	for k, p := range v.Pos {
		s += float64(q[p]) * float64(v.Val[k])
	}
	return s
}
