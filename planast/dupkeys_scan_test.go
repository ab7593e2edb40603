package planast

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomDoc writes a JSON value whose objects draw keys from a small set
// that spells some keys two ways (an escape, a non-ASCII letter, invalid
// UTF-8 that decodes to U+FFFD), so keys
// repeat as written and only once decoded.
func randomDoc(r *rand.Rand, b *strings.Builder, depth int) {
	keys := []string{`"a"`, `"\u0061"`, `"b"`, `"from"`, `"é"`, `"\u00e9"`, `"a\"b"`, `"a\\"`, `"x y"`, `"[{"`, "\"\xff\"", "\"\xfe\""}
	switch k := r.IntN(6); {
	case depth > 3 || k < 2:
		b.WriteString([]string{`1`, `"s"`, `"\"}"`, `null`, `true`, `"{\"a\":1,\"a\":2}"`}[r.IntN(6)])
	case k < 4:
		b.WriteByte('[')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteString(", ")
			}
			randomDoc(r, b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteString("{ ")
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteString(" ,")
			}
			b.WriteString(keys[r.IntN(len(keys))] + " : ")
			randomDoc(r, b, depth+1)
		}
		b.WriteByte('}')
	}
}

// The byte scan in front of the tokenizer never clears a document the
// tokenizer refuses: on thousands of random documents, each one with a
// repeated key (as written or once decoded) is still refused.
func TestDuplicateKeyScanMissesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	refused := 0
	for i := range 20000 {
		var b strings.Builder
		b.WriteString("{")
		b.WriteString(`"k":`)
		randomDoc(r, &b, 0)
		b.WriteString("}")
		if r.IntN(4) == 0 {
			b.WriteString(` {"unterminated`)
		}
		doc := []byte(b.String())
		if first := strings.TrimSuffix(b.String(), ` {"unterminated`); !json.Valid([]byte(first)) {
			t.Fatalf("case %d: the generator wrote invalid JSON: %s", i, first)
		}
		tok := tokenizerDuplicates(doc)
		if tok != nil {
			refused++
			if !mayRepeatKeys(doc) {
				t.Fatalf("case %d: the scan cleared %s, which repeats a key (%v)", i, doc, tok)
			}
		}
		if got := CheckDuplicateKeys(doc, "plan"); (got == nil) != (tok == nil) || (got != nil && got.Error() != tok.Error()) {
			t.Fatalf("case %d: %s: CheckDuplicateKeys says %v, the tokenizer alone %v", i, doc, got, tok)
		}
	}
	if refused < 1000 {
		t.Fatalf("only %d of the documents repeat a key", refused)
	}
}

// tokenizerDuplicates is the tokenizer's walk alone, without the scan.
func tokenizerDuplicates(doc []byte) error {
	saved := scanFirst
	scanFirst = false
	defer func() { scanFirst = saved }()
	return CheckDuplicateKeys(doc, "plan")
}
