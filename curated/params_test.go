package curated

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func TestParamCheck(t *testing.T) {
	year := Param{Name: "year", Type: TypeString, Pattern: "^[0-9]{4}$"}
	country := Param{Name: "country", Type: TypeString, Choices: []string{"USA", "Canada"}}
	short := Param{Name: "s", Type: TypeString, MaxLength: ptr(3)}
	n := Param{Name: "n", Type: TypeInteger, Min: ptr(1.0), Max: ptr(100.0)}
	x := Param{Name: "x", Type: TypeNumber, Min: ptr(0.5)}
	b := Param{Name: "b", Type: TypeBoolean}
	d := Param{Name: "d", Type: TypeDate}
	for _, p := range []*Param{&year, &country, &short, &n, &x, &b, &d} {
		if err := p.define(); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		p    *Param
		in   any
		want any // nil: refused
	}{
		{&year, "2024", "2024"},
		{&year, "2024'; DROP TABLE Invoice; --", nil},
		{&year, "20245", nil},
		{&year, 2024, nil},
		{&country, "USA", "USA"},
		{&country, "usa", nil},
		{&short, "abc", "abc"},
		{&short, "äöü", "äöü"}, // runes, not bytes
		{&short, "abcd", nil},
		{&short, strings.Repeat("a", 5000), nil},
		{&short, "\xff", nil},
		{&n, json.Number("7"), int64(7)},
		{&n, 7, int64(7)},
		{&n, 7.0, int64(7)},
		{&n, json.Number("7.5"), nil},
		{&n, json.Number("0"), nil},
		{&n, json.Number("101"), nil},
		{&n, "7", nil},
		{&n, json.Number("99999999999999999999"), nil},
		{&x, json.Number("0.75"), 0.75},
		{&x, json.Number("0.25"), nil},
		{&x, "1", nil},
		{&b, true, true},
		{&b, "true", nil},
		{&d, "2024-02-29", "2024-02-29"},
		{&d, "2023-02-29", nil},
		{&d, "2024-1-1", nil},
		{&d, "2024-01-01'; --", nil},
	}
	for _, tt := range tests {
		got, err := tt.p.check(tt.in)
		if tt.want == nil {
			if err == nil || err.Code != CodeParams || err.Param != tt.p.Name {
				t.Errorf("%s(%v) accepted: %v", tt.p.Name, tt.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s(%v) = %#v, %v; want %#v", tt.p.Name, tt.in, got, err, tt.want)
		}
	}
}

func TestParamDefine(t *testing.T) {
	tests := []struct {
		p    Param
		want string
	}{
		{Param{Name: "1x", Type: TypeString}, "param name"},
		{Param{Name: "x", Type: "text"}, "not one of"},
		{Param{Name: "x", Type: TypeString, Pattern: "("}, "pattern"},
		{Param{Name: "x", Type: TypeInteger, Pattern: "."}, "strings only"},
		{Param{Name: "x", Type: TypeString, Min: ptr(1.0)}, "integers and numbers only"},
		{Param{Name: "x", Type: TypeInteger, Min: ptr(2.0), Max: ptr(1.0)}, "greater than max"},
		{Param{Name: "x", Type: TypeString, MaxLength: ptr(0)}, "max_length"},
		{Param{Name: "x", Type: TypeString, Pattern: "^a$", Example: "b"}, "example"},
		{Param{Name: "x", Type: TypeString, Pattern: "^a$", Choices: []string{"b"}}, "choice"},
		{Param{Name: "x", Type: TypeDate, Default: "tomorrow"}, "default"},
	}
	for _, tt := range tests {
		err := tt.p.define()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.p, err, tt.want)
		}
	}
}

func TestBindAndSchema(t *testing.T) {
	q := &Query{ID: "q", Params: []Param{
		{Name: "year", Type: TypeString, Required: true, Pattern: "^[0-9]{4}$", Example: "2024", Description: "Four-digit year"},
		{Name: "limit", Type: TypeInteger, Default: 10, Min: ptr(1.0)},
		{Name: "country", Type: TypeString},
	}}
	for i := range q.Params {
		if err := q.Params[i].define(); err != nil {
			t.Fatal(err)
		}
	}
	q.prep = &prepared{order: []string{"limit", "year", "country"}}
	args, err := q.Bind(map[string]any{"year": "2023"})
	if err != nil || !reflect.DeepEqual(args, []any{int64(10), "2023", nil}) {
		t.Errorf("Bind = %#v, %v", args, err)
	}
	for _, bad := range []map[string]any{{}, {"year": nil}, {"year": "23"}, {"year": "2023", "other": 1}} {
		if _, err := q.Bind(bad); err == nil || err.(*Error).Code != CodeParams {
			t.Errorf("Bind(%v) = %v", bad, err)
		}
	}
	m, err := DecodeParams([]byte(`{"year": "2024", "limit": 5}`))
	if err != nil || m["limit"] != json.Number("5") {
		t.Errorf("DecodeParams = %v, %v", m, err)
	}
	for _, raw := range []string{``, `[]`, `null`, `{"a":1} {"b":2}`, `"x"`} {
		if _, err := DecodeParams([]byte(raw)); err == nil {
			t.Errorf("DecodeParams(%q) accepted", raw)
		}
	}
	got, _ := json.Marshal(q.ParamSchema())
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,"properties":{"country":{"type":"string"},"limit":{"default":10,"minimum":1,"type":"integer"},"year":{"description":"Four-digit year (example: \"2024\")","examples":["2024"],"pattern":"^[0-9]{4}$","type":"string"}},"required":["year"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	req, _ := json.Marshal(NewParamRequest(q, "revenue in 2023"))
	if !strings.Contains(string(req), `"query_id":"q"`) || strings.Contains(string(req), "SELECT") {
		t.Errorf("request %s", req)
	}
}

// A whole number refused says why: written as a string, or past the 64-bit
// range ("must be a whole number" of "42" and of 99999999999999999999 sent
// a user looking for a fraction that was not there).
func TestWholeNumberRefusalsSayWhy(t *testing.T) {
	n := Param{Name: "n", Type: TypeInteger}
	if err := n.define(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in   any
		want string
	}{
		{"42", `not a string ("42")`},
		{json.Number("99999999999999999999"), "(64 bits), not 99999999999999999999"},
		{1e20, "at most 2^53"},
		{json.Number("7.5"), "must be a whole number"},
	} {
		_, err := n.check(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want a refusal saying %q", tt.in, err, tt.want)
		}
	}
}

// A date written as the refusal asks ("YYYY-MM-DD") but not on the
// calendar was told to be written YYYY-MM-DD: a caller resent it as it
// was. The refusal says which day does not exist, and the shape refusal
// stays for text of another shape.
func TestDateRefusalsSayWhy(t *testing.T) {
	d := Param{Name: "since", Type: TypeDate}
	if err := d.define(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ in, want string }{
		{"2024-02-30", "not a real calendar date: February 2024 has 29 days"},
		{"2023-02-29", "February 2023 has 28 days"},
		{"2024-13-01", "there is no month 13"},
		{"2024-04-00", "days are numbered from 01"},
		{"0000-01-01", "there is no year 0"},
		{"2024/06/01", "must be a date written YYYY-MM-DD"},
	} {
		_, err := d.check(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a refusal saying %q", tt.in, err, tt.want)
		}
	}
}
