package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// The data file holds what an index keeps beside its bleve indexes, in
// flat little-endian arrays so that opening it decodes a few large slices
// rather than one small object per document (a 2,000-table schema has
// 42,000 vectors and up to 100,000 values):
//
//	magic "nl2sqlix", u32 format, u32 dims, u32 whole-schema tokens
//	u32 n vectors, u32 offsets[n+1], u32 positions[...], f32 values[...]
//	u32 m values, u32 tables[m], u32 columns[m], u32 text offsets[m+1], text
//
// Vectors and value texts come back as sub-slices of those arrays.
const dataMagic = "nl2sqlix"

// stored is the data file's content.
type stored struct {
	Vecs        []vector
	Dims        int
	Values      []storedValue
	WholeTokens int
}

type storedValue struct {
	Table, Col int
	Value      string
}

func encodeData(st *stored) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(dataMagic)
	offs := make([]uint32, 0, len(st.Vecs)+1)
	var n int
	offs = append(offs, 0)
	for _, v := range st.Vecs {
		n += len(v.Pos)
		offs = append(offs, uint32(n))
	}
	pos, val := make([]uint32, 0, n), make([]float32, 0, n)
	for _, v := range st.Vecs {
		pos, val = append(pos, v.Pos...), append(val, v.Val...)
	}
	tables, cols, toffs := make([]uint32, len(st.Values)), make([]uint32, len(st.Values)), make([]uint32, 0, len(st.Values)+1)
	var text bytes.Buffer
	toffs = append(toffs, 0)
	for i, v := range st.Values {
		tables[i], cols[i] = uint32(v.Table), uint32(v.Col)
		text.WriteString(v.Value)
		toffs = append(toffs, uint32(text.Len()))
	}
	if n > math.MaxUint32 || text.Len() > math.MaxUint32 {
		return nil, errors.New("index data too large to store")
	}
	for _, x := range []any{uint32(persistFormat), uint32(st.Dims), uint32(st.WholeTokens),
		uint32(len(st.Vecs)), offs, pos, val,
		uint32(len(st.Values)), tables, cols, toffs} {
		if err := binary.Write(&b, binary.LittleEndian, x); err != nil {
			return nil, err
		}
	}
	b.Write(text.Bytes())
	return b.Bytes(), nil
}

func decodeData(data []byte) (*stored, error) {
	if !bytes.HasPrefix(data, []byte(dataMagic)) {
		return nil, errors.New("not an index data file")
	}
	r := bytes.NewReader(data[len(dataMagic):])
	u32 := func() (uint32, error) {
		var x uint32
		err := binary.Read(r, binary.LittleEndian, &x)
		return x, err
	}
	slice := func(n uint32, out any) error {
		if uint64(n)*4 > uint64(r.Len()) {
			return io.ErrUnexpectedEOF
		}
		return binary.Read(r, binary.LittleEndian, out)
	}
	var head [4]uint32
	for i := range head {
		x, err := u32()
		if err != nil {
			return nil, err
		}
		head[i] = x
	}
	if head[0] != persistFormat {
		return nil, fmt.Errorf("data format %d, want %d", head[0], persistFormat)
	}
	st := &stored{Dims: int(head[1]), WholeTokens: int(head[2])}
	nv := head[3]
	if uint64(nv+1)*4 > uint64(r.Len()) {
		return nil, io.ErrUnexpectedEOF
	}
	offs := make([]uint32, nv+1)
	if err := slice(nv+1, offs); err != nil {
		return nil, err
	}
	total := offs[nv]
	pos, val := make([]uint32, total), make([]float32, total)
	if err := slice(total, pos); err != nil {
		return nil, err
	}
	if err := slice(total, val); err != nil {
		return nil, err
	}
	st.Vecs = make([]vector, nv)
	for i := range st.Vecs {
		a, z := offs[i], offs[i+1]
		if a > z || z > total {
			return nil, errors.New("vector offsets out of order")
		}
		st.Vecs[i] = vector{Pos: pos[a:z:z], Val: val[a:z:z]}
	}
	m, err := u32()
	if err != nil {
		return nil, err
	}
	if uint64(m)*12 > uint64(r.Len()) {
		return nil, io.ErrUnexpectedEOF
	}
	tables, cols, toffs := make([]uint32, m), make([]uint32, m), make([]uint32, m+1)
	for _, s := range [][]uint32{tables, cols, toffs} {
		if err := slice(uint32(len(s)), s); err != nil {
			return nil, err
		}
	}
	text := string(data[len(data)-r.Len():])
	st.Values = make([]storedValue, m)
	for i := range st.Values {
		a, z := toffs[i], toffs[i+1]
		if a > z || int(z) > len(text) {
			return nil, errors.New("value offsets out of order")
		}
		st.Values[i] = storedValue{Table: int(tables[i]), Col: int(cols[i]), Value: text[a:z]}
	}
	return st, nil
}
