package curated

import (
	"encoding/json"
	"math"
	"regexp"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzQuery declares one param of every type, with every kind of check.
func fuzzQuery(t testing.TB) *Query {
	q := &Query{ID: "fuzz", Params: []Param{
		{Name: "year", Type: TypeString, Required: true, Pattern: "^[0-9]{4}$"},
		{Name: "country", Type: TypeString, Choices: []string{"USA", "Canada", "O'Reilly"}},
		{Name: "s", Type: TypeString, MaxLength: ptr(8)},
		{Name: "n", Type: TypeInteger, Default: 10, Min: ptr(1.0), Max: ptr(100.0)},
		{Name: "x", Type: TypeNumber, Min: ptr(-0.5), Max: ptr(1e6)},
		{Name: "b", Type: TypeBoolean},
		{Name: "d", Type: TypeDate},
	}}
	for i := range q.Params {
		if err := q.Params[i].define(); err != nil {
			t.Fatal(err)
		}
	}
	q.prep = &prepared{order: []string{"year", "country", "s", "n", "x", "b", "d", "year"}}
	return q
}

var yearRE = regexp.MustCompile(`^[0-9]{4}$`)

// FuzzBind sends arbitrary bytes as the parameter object of a verified
// query (what a model or an MCP client sends): DecodeParams then Bind
// either refuse with a typed *Error naming the param, or return arguments
// that satisfy every declared check. Seeds are in testdata/fuzz/FuzzBind.
func FuzzBind(f *testing.F) {
	f.Add([]byte(`{"year":"2024"}`))
	f.Add([]byte(`{"year":"2024","country":"O'Reilly","s":"äöü","n":7,"x":0.75,"b":true,"d":"2024-02-29"}`))
	f.Add([]byte(`{"year":"2024'; DROP TABLE Invoice; --"}`))
	f.Add([]byte(`{"year":"2024","n":1e400}`))
	f.Add([]byte(`{"year":"2024","n":99999999999999999999}`))
	q := fuzzQuery(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := DecodeParams(raw)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeParams {
				t.Fatalf("DecodeParams error %T %v", err, err)
			}
			return
		}
		args, err := q.Bind(m)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Code != CodeParams {
				t.Fatalf("Bind error %T %v", err, err)
			}
			return
		}
		if len(args) != 8 {
			t.Fatalf("%d args", len(args))
		}
		year, ok := args[0].(string)
		if !ok || !yearRE.MatchString(year) || args[7] != args[0] {
			t.Fatalf("year bound as %#v / %#v", args[0], args[7])
		}
		if c := args[1]; c != nil && c != "USA" && c != "Canada" && c != "O'Reilly" {
			t.Fatalf("country bound as %#v", c)
		}
		if s := args[2]; s != nil {
			str, ok := s.(string)
			if !ok || !utf8.ValidString(str) || utf8.RuneCountInString(str) > 8 {
				t.Fatalf("s bound as %#v", s)
			}
		}
		if n, ok := args[3].(int64); !ok || n < 1 || n > 100 {
			t.Fatalf("n bound as %#v", args[3])
		}
		if x := args[4]; x != nil {
			v, ok := x.(float64)
			if !ok || math.IsNaN(v) || v < -0.5 || v > 1e6 {
				t.Fatalf("x bound as %#v", x)
			}
		}
		if b := args[5]; b != nil {
			if _, ok := b.(bool); !ok {
				t.Fatalf("b bound as %#v", b)
			}
		}
		if d := args[6]; d != nil {
			s, ok := d.(string)
			if !ok {
				t.Fatalf("d bound as %#v", d)
			}
			if _, err := time.Parse("2006-01-02", s); err != nil {
				t.Fatalf("d bound as %q", s)
			}
		}
		if _, err := json.Marshal(args); err != nil {
			t.Fatalf("args do not marshal: %v", err)
		}
	})
}
