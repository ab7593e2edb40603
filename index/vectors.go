package index

import "github.com/nl2sql/nl2sql/index/datafile"

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

// dotSparse is dot(q, dense(v)): it sums the same non-zero products in
// the same position order, so the result has the same bits.
func dotSparse(q []float32, v vector) float64 {
	var s float64
	for k, p := range v.Pos {
		s += float64(q[p]) * float64(v.Val[k])
	}
	return s
}
