package index

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// embedTexts are names and sentences of every shape the n-gram embedder
// meets: camel case, digits, accents, non-Latin letters, a word longer
// than its on-stack buffer, punctuation only and nothing at all.
func embedTexts() []string {
	texts := []string{"InvoiceLine", "invoice line", "How many singers do we have?", "",
		"Café Ñandú crème brûlée", "顧客 注文", "---", "customerID of HTTPServer address2",
		strings.Repeat("abcdefghij", 9), "table song release year. The year a song was released"}
	for i := range 300 {
		texts = append(texts, fmt.Sprintf("column c%d_%s of t%d", i, []string{"name", "amount", "date", "code"}[i%4], i/7))
	}
	return texts
}

// TestEmbedVectorsSameBits: the sparse path a build takes for NGram keeps
// exactly what sparse(embedAll(...)) kept, bit for bit, also with few
// buckets, where n-grams collide and entries cancel to zero.
func TestEmbedVectorsSameBits(t *testing.T) {
	ctx := context.Background()
	texts := embedTexts()
	for _, dims := range []int{0, 16, 3} {
		e := NGram{Dims: dims}
		dense, err := embedAll(ctx, e, texts, 7)
		if err != nil {
			t.Fatal(err)
		}
		got, n, err := embedVectors(ctx, e, texts, 7)
		if err != nil {
			t.Fatal(err)
		}
		if n != e.dims() || len(got) != len(texts) {
			t.Fatalf("dims %d: %d vectors of %d, want %d of %d", dims, len(got), n, len(texts), e.dims())
		}
		for i, v := range dense {
			if want := sparse(v); !reflect.DeepEqual(got[i], want) {
				t.Fatalf("dims %d, %q: sparse path %v, want %v", dims, texts[i], got[i], want)
			}
		}
	}
	if vs, n, err := embedVectors(ctx, NGram{}, nil, 0); vs != nil || n != 0 || err != nil {
		t.Errorf("no texts: %v, %d, %v", vs, n, err)
	}
}

// TestNGramVectorsUnchanged: NGram's vectors are those stored indexes
// hold (the hash below was taken before the embedder stopped making a
// string per n-gram), so an index key and its data file stay the same.
func TestNGramVectorsUnchanged(t *testing.T) {
	vs, err := NGram{}.Embed(context.Background(), embedTexts())
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, v := range vs {
		for _, x := range v {
			binary.Write(h, binary.LittleEndian, math.Float32bits(x))
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != ngramGolden {
		t.Errorf("vectors hash %s, want %s", got, ngramGolden)
	}
}

const ngramGolden = "e0617ee266a7fc46727d35b02733d02e0107bebafec69ce29f255aa78749123d"
