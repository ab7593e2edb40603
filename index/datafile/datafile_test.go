package datafile

import (
	"reflect"
	"testing"
)

// The data file decodes to what was encoded whether its bytes are viewed
// in place (aligned) or copied (misaligned, as on a machine whose words
// differ), and a truncated file is an error, never a panic. The reuse
// section (what a later build may take) reads back from the same bytes,
// and opening for retrieval does not depend on it.
func TestDataFileRoundTrips(t *testing.T) {
	st := &File{Dims: 7, WholeTokens: 123,
		Vecs:   []Vector{{Pos: []uint32{1, 5}, Val: []float32{0.5, -0.25}}, {}, {Pos: []uint32{6}, Val: []float32{1}}},
		Values: []Value{{0, 1, "Heavy Metal"}, {2, 0, ""}, {1, 3, "Zürich"}},
		Reuse:  []byte(`{"embedder":"ngram","fetched":{"k":["Heavy Metal","Zürich"]}}`)}
	buf, err := Encode(st, 4)
	if err != nil {
		t.Fatal(err)
	}
	shifted := make([]byte, len(buf)+1)
	copy(shifted[1:], buf)
	for name, data := range map[string][]byte{"aligned": buf, "misaligned": shifted[1:]} {
		got, err := Decode(data, 4)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		raw, err := ReuseSection(data)
		if err != nil {
			t.Fatalf("%s: reuse section: %v", name, err)
		}
		got.Reuse = raw
		for i := range got.Vecs { // an empty vector decodes as empty slices
			if len(got.Vecs[i].Pos) == 0 {
				got.Vecs[i] = Vector{}
			}
		}
		if !reflect.DeepEqual(got, st) {
			t.Errorf("%s: decoded %+v, want %+v", name, got, st)
		}
	}
	for n := len(dataMagic); n < len(buf)-len(st.Reuse)-len("Heavy MetalZürich"); n++ {
		if _, err := Decode(buf[:n], 4); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
}
