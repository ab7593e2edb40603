// Package datafile is the layout of a stored retrieval index's data file
// (data.bin): what package index keeps beside its bleve indexes: one
// sparse vector per schema document, the value documents, the whole
// schema's token count, and a section a later build may reuse. It owns
// the byte layout and nothing else: what the numbers mean, the format
// number and the checksum belong to package index.
//
// Example: what Encode writes, Decode reads back, viewing the arrays in
// place on a little-endian machine:
//
//	b, _ := datafile.Encode(&datafile.File{Dims: 3, Vecs: []datafile.Vector{{Pos: []uint32{1}, Val: []float32{1}}}}, 4)
//	f, _ := datafile.Decode(b, 4) // f.Vecs[0].Pos is a view into b
package datafile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"
)

// The data file holds what an index keeps beside its bleve indexes, in
// flat little-endian arrays so that opening it decodes a few large slices
// rather than one small object per document (a 2,000-table schema has
// 42,000 vectors and up to 100,000 values):
//
//	magic "nl2sqlix", u32 format, u32 dims, u32 whole-schema tokens
//	u32 n vectors, u32 offsets[n+1], u32 positions[...], f32 values[...]
//	u32 m values, u32 tables[m], u32 columns[m], u32 text offsets[m+1], text
//	reuse section: File.Reuse (package index writes JSON there), to the end
//
// Opening an index for retrieval stops before the reuse section; only a
// build that reuses it reads it (ReuseSection).
// Vectors and value texts come back as sub-slices of those arrays.
const dataMagic = "nl2sqlix"

// File is the data file's content.
type File struct {
	Vecs        []Vector
	Dims        int
	Values      []Value
	WholeTokens int
	// Reuse is written after everything else, as it is; Decode does not
	// read it (ReuseSection does).
	Reuse []byte
}

// Vector is one document's embedding, kept sparse: the positions and
// values of its non-zero entries in increasing position.
type Vector struct {
	Pos []uint32
	Val []float32
}

// Value is one stored value of one column, by the column's table's and its
// own position in the snapshot.
type Value struct {
	Table, Col int
	Value      string
}

// Encode is f in the data file layout (what Write writes), format being
// the index's stored format number.
func Encode(f *File, format uint32) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, f, format); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes f to w in the data file layout, format being the index's
// stored format number. It streams: beside f it holds only a small
// buffer, never the file (a 2,000-table schema's is over 20 MB, and its
// arrays were copied twice more to be written at once).
func Write(w io.Writer, f *File, format uint32) error {
	var n, textLen uint64
	for _, v := range f.Vecs {
		n += uint64(len(v.Pos))
	}
	for _, v := range f.Values {
		textLen += uint64(len(v.Value))
	}
	if n > math.MaxUint32 || textLen > math.MaxUint32 {
		return errors.New("index data too large to store")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var word [4]byte
	put := func(x uint32) {
		binary.LittleEndian.PutUint32(word[:], x)
		bw.Write(word[:])
	}
	bw.WriteString(dataMagic)
	put(format)
	put(uint32(f.Dims))
	put(uint32(f.WholeTokens))
	put(uint32(len(f.Vecs)))
	var off uint32
	put(0)
	for _, v := range f.Vecs {
		off += uint32(len(v.Pos))
		put(off)
	}
	for _, v := range f.Vecs {
		for _, p := range v.Pos {
			put(p)
		}
	}
	for _, v := range f.Vecs {
		for _, x := range v.Val {
			put(math.Float32bits(x))
		}
	}
	put(uint32(len(f.Values)))
	for _, v := range f.Values {
		put(uint32(v.Table))
	}
	for _, v := range f.Values {
		put(uint32(v.Col))
	}
	off = 0
	put(0)
	for _, v := range f.Values {
		off += uint32(len(v.Value))
		put(off)
	}
	for _, v := range f.Values {
		bw.WriteString(v.Value)
	}
	bw.Write(f.Reuse)
	return bw.Flush() // a bufio.Writer keeps its first error
}

// Decode reads a data file of format, viewing its arrays in place where
// it can (u32View); the reuse section is not read.
func Decode(data []byte, format uint32) (*File, error) {
	if !bytes.HasPrefix(data, []byte(dataMagic)) {
		return nil, errors.New("not an index data file")
	}
	r := data[len(dataMagic):]
	// next takes n little-endian 32-bit words off r, viewed in place.
	next := func(n uint64) ([]uint32, error) {
		if n*4 > uint64(len(r)) {
			return nil, io.ErrUnexpectedEOF
		}
		out := u32View(r[:n*4])
		r = r[n*4:]
		return out, nil
	}
	head, err := next(4)
	if err != nil {
		return nil, err
	}
	if head[0] != format {
		return nil, fmt.Errorf("data format %d, want %d", head[0], format)
	}
	st := &File{Dims: int(head[1]), WholeTokens: int(head[2])}
	nv := uint64(head[3])
	offs, err := next(nv + 1)
	if err != nil {
		return nil, err
	}
	total := offs[nv]
	pos, err := next(uint64(total))
	if err != nil {
		return nil, err
	}
	bits, err := next(uint64(total))
	if err != nil {
		return nil, err
	}
	val := f32View(bits)
	st.Vecs = make([]Vector, nv)
	for i := range st.Vecs {
		a, z := offs[i], offs[i+1]
		if a > z || z > total {
			return nil, errors.New("vector offsets out of order")
		}
		st.Vecs[i] = Vector{Pos: pos[a:z:z], Val: val[a:z:z]}
	}
	ms, err := next(1)
	if err != nil {
		return nil, err
	}
	m := uint64(ms[0])
	tables, err := next(m)
	if err != nil {
		return nil, err
	}
	cols, err := next(m)
	if err != nil {
		return nil, err
	}
	toffs, err := next(m + 1)
	if err != nil {
		return nil, err
	}
	if uint64(toffs[m]) > uint64(len(r)) {
		return nil, io.ErrUnexpectedEOF
	}
	r = r[:toffs[m]] // the reuse section follows
	var text string
	if len(r) > 0 {
		text = unsafe.String(&r[0], len(r)) // data is never written
	}
	st.Values = make([]Value, m)
	for i := range st.Values {
		a, z := toffs[i], toffs[i+1]
		if a > z || int(z) > len(text) {
			return nil, errors.New("value offsets out of order")
		}
		st.Values[i] = Value{Table: int(tables[i]), Col: int(cols[i]), Value: text[a:z]}
	}
	return st, nil
}

// ReuseSection is the reuse section of a data file: what follows the
// value texts.
func ReuseSection(data []byte) ([]byte, error) {
	if !bytes.HasPrefix(data, []byte(dataMagic)) {
		return nil, errors.New("not an index data file")
	}
	r := data[len(dataMagic):]
	word := func(at uint64) (uint64, error) {
		if at*4+4 > uint64(len(r)) {
			return 0, io.ErrUnexpectedEOF
		}
		return uint64(binary.LittleEndian.Uint32(r[at*4:])), nil
	}
	nv, err := word(3)
	if err != nil {
		return nil, err
	}
	total, err := word(4 + nv) // offs[nv]
	if err != nil {
		return nil, err
	}
	at := 4 + nv + 1 + 2*total // past the positions and values
	m, err := word(at)
	if err != nil {
		return nil, err
	}
	at += 1 + 2*m // past m, tables, columns
	textLen, err := word(at + m)
	if err != nil {
		return nil, err
	}
	start := (at+m+1)*4 + textLen
	if start > uint64(len(r)) {
		return nil, io.ErrUnexpectedEOF
	}
	return r[start:], nil
}

// u32View is b's little-endian 32-bit words: b itself, viewed in place,
// on a little-endian machine when b is aligned (opening a stored index
// then copies none of its arrays); a decoded copy otherwise. The view
// keeps b alive and must not be written.
func u32View(b []byte) []uint32 {
	n := len(b) / 4
	if n == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// f32View is u's words as the float32 values whose bits they are, in
// place on a little-endian machine (where u32View viewed them in place
// too), else converted.
func f32View(u []uint32) []float32 {
	if len(u) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*float32)(unsafe.Pointer(&u[0])), len(u))
	}
	out := make([]float32, len(u))
	for i, x := range u {
		out[i] = math.Float32frombits(x)
	}
	return out
}

// littleEndian is true on machines that store words as the data file does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
