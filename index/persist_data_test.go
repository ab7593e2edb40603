package index

import (
	"reflect"
	"testing"
)

// The data file decodes to what was encoded whether its bytes are viewed
// in place (aligned) or copied (misaligned, as on a machine whose words
// differ), and a truncated file is an error, never a panic.
func TestDataFileRoundTrips(t *testing.T) {
	st := &stored{Dims: 7, WholeTokens: 123,
		Vecs:   []vector{{Pos: []uint32{1, 5}, Val: []float32{0.5, -0.25}}, {}, {Pos: []uint32{6}, Val: []float32{1}}},
		Values: []storedValue{{0, 1, "Heavy Metal"}, {2, 0, ""}, {1, 3, "Zürich"}}}
	buf, err := encodeData(st)
	if err != nil {
		t.Fatal(err)
	}
	shifted := make([]byte, len(buf)+1)
	copy(shifted[1:], buf)
	for name, data := range map[string][]byte{"aligned": buf, "misaligned": shifted[1:]} {
		got, err := decodeData(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range got.Vecs { // an empty vector decodes as empty slices
			if len(got.Vecs[i].Pos) == 0 {
				got.Vecs[i] = vector{}
			}
		}
		if !reflect.DeepEqual(got, st) {
			t.Errorf("%s: decoded %+v, want %+v", name, got, st)
		}
	}
	for n := len(dataMagic); n < len(buf)-len("Heavy MetalZürich"); n++ {
		if _, err := decodeData(buf[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
}
