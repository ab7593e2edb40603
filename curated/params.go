package curated

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Param types.
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
	TypeDate    = "date" // YYYY-MM-DD, a real calendar date
)

// maxStringBytes bounds any string value (before max_length applies).
const maxStringBytes = 4096

// Param declares one :name of a verified query. Keys by type:
//
//	string:  pattern (RE2, matched against the whole value: anchor it),
//	         choices (the value must be one of them), max_length (runes)
//	integer, number: min, max (inclusive)
//	boolean, date: none
//
// and for every type required, default (used when the value is absent),
// example (used by `curated test` and to plan the query at validation) and
// description (shown to the model that fills the values).
type Param struct {
	Name        string   `yaml:"name" json:"name"`
	Type        string   `yaml:"type" json:"type"`
	Required    bool     `yaml:"required" json:"required,omitempty"`
	Description string   `yaml:"description" json:"description,omitempty"`
	Pattern     string   `yaml:"pattern" json:"pattern,omitempty"`
	Choices     []string `yaml:"choices" json:"choices,omitempty"`
	MaxLength   *int     `yaml:"max_length" json:"max_length,omitempty"`
	Min         *float64 `yaml:"min" json:"min,omitempty"`
	Max         *float64 `yaml:"max" json:"max,omitempty"`
	Example     any      `yaml:"example" json:"example,omitempty"`
	Default     any      `yaml:"default" json:"default,omitempty"`

	re *regexp.Regexp
}

var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// define checks the declaration and compiles the pattern.
func (p *Param) define() *Error {
	bad := func(format string, args ...any) *Error {
		return refusef(CodeDefinition, "param %q: %s", p.Name, fmt.Sprintf(format, args...))
	}
	if !paramName.MatchString(p.Name) {
		return refusef(CodeDefinition, "param name %q must match %s", p.Name, paramName)
	}
	switch p.Type {
	case TypeString:
		if p.Pattern != "" {
			re, err := regexp.Compile(p.Pattern)
			if err != nil {
				return bad("pattern: %v", err)
			}
			p.re = re
		}
		if p.MaxLength != nil && *p.MaxLength <= 0 {
			return bad("max_length must be greater than 0")
		}
	case TypeInteger, TypeNumber:
		if p.Min != nil && p.Max != nil && *p.Min > *p.Max {
			return bad("min is greater than max")
		}
	case TypeBoolean, TypeDate:
	default:
		return bad("type %q is not one of string, integer, number, boolean, date", p.Type)
	}
	if p.Type != TypeString && (p.Pattern != "" || p.Choices != nil || p.MaxLength != nil) {
		return bad("pattern, choices and max_length apply to strings only")
	}
	if p.Type != TypeInteger && p.Type != TypeNumber && (p.Min != nil || p.Max != nil) {
		return bad("min and max apply to integers and numbers only")
	}
	for _, c := range p.Choices {
		if _, err := p.check(c); err != nil {
			return bad("choice %q fails the param's own checks", c)
		}
	}
	if p.Example != nil {
		if _, err := p.check(p.Example); err != nil {
			return refusef(CodeExample, "param %q: example: %s", p.Name, err.Msg)
		}
	}
	if p.Default != nil {
		if _, err := p.check(p.Default); err != nil {
			return bad("default: %s", err.Msg)
		}
	}
	return nil
}

// noSuchDate says why s, written as YYYY-MM-DD, names no day of the
// calendar ("February 2024 has 29 days"); "" when s is not so written.
func noSuchDate(s string) string {
	if !dateShape.MatchString(s) {
		return ""
	}
	y, _ := strconv.Atoi(s[:4])
	m, _ := strconv.Atoi(s[5:7])
	switch {
	case y < 1:
		return "there is no year 0"
	case m < 1 || m > 12:
		return fmt.Sprintf("there is no month %s", s[5:7])
	case s[8:] == "00":
		return "days are numbered from 01"
	}
	last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC)
	return fmt.Sprintf("%s %d has %d days", last.Month(), y, last.Day())
}

var dateShape = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// check types and checks one value as JSON or YAML decoding produced it
// (json.Number, float64, int, string, bool) and returns the value to bind:
// string, int64, float64 or bool; a date binds as its "YYYY-MM-DD" text.
// Values are always bound by the driver, never written into SQL text.
func (p *Param) check(v any) (any, *Error) {
	bad := func(format string, args ...any) *Error {
		return &Error{Code: CodeParams, Param: p.Name, Msg: fmt.Sprintf("%s: %s", p.Name, fmt.Sprintf(format, args...))}
	}
	switch p.Type {
	case TypeString, TypeDate:
		s, ok := v.(string)
		if !ok {
			return nil, bad("must be a string")
		}
		if len(s) > maxStringBytes || !utf8.ValidString(s) {
			return nil, bad("must be valid text of at most %d bytes", maxStringBytes)
		}
		if p.Type == TypeDate {
			t, err := time.Parse("2006-01-02", s)
			if err != nil || t.Year() < 1 {
				if why := noSuchDate(s); why != "" {
					// written right: told to write it so, a caller
					// resends the same value
					return nil, bad("%q is written YYYY-MM-DD but is not a real calendar date: %s", s, why)
				}
				return nil, bad("must be a date written YYYY-MM-DD")
			}
			return s, nil
		}
		if p.MaxLength != nil && utf8.RuneCountInString(s) > *p.MaxLength {
			return nil, bad("must be at most %d characters", *p.MaxLength)
		}
		if p.Choices != nil && !slices.Contains(p.Choices, s) {
			return nil, bad("must be one of %q", p.Choices)
		}
		if p.re != nil && !p.re.MatchString(s) {
			return nil, bad("does not match the pattern %s", p.Pattern)
		}
		return s, nil
	case TypeBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, bad("must be true or false")
		}
		return b, nil
	case TypeInteger:
		n, ok := toInt(v)
		if !ok {
			switch x := v.(type) {
			case string:
				return nil, bad("must be a whole number written as a JSON number (42), not a string (%q)", x)
			case json.Number:
				if _, err := strconv.ParseInt(string(x), 10, 64); err != nil && strings.Trim(string(x), "-0123456789") == "" {
					return nil, bad("must be a whole number between -9223372036854775808 and 9223372036854775807 (64 bits), not %s", x)
				}
			case float64:
				if x == math.Trunc(x) {
					return nil, bad("must be a whole number of at most 2^53 in size (one a double holds exactly), not %s", strconv.FormatFloat(x, 'f', -1, 64))
				}
			}
			return nil, bad("must be a whole number")
		}
		if p.Min != nil && float64(n) < *p.Min || p.Max != nil && float64(n) > *p.Max {
			return nil, bad("must be between %s and %s", bound(p.Min), bound(p.Max))
		}
		return n, nil
	case TypeNumber:
		f, ok := toFloat(v)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, bad("must be a number")
		}
		if p.Min != nil && f < *p.Min || p.Max != nil && f > *p.Max {
			return nil, bad("must be between %s and %s", bound(p.Min), bound(p.Max))
		}
		return f, nil
	}
	return nil, bad("has an unknown type")
}

func bound(f *float64) string {
	if f == nil {
		return "any"
	}
	return strconv.FormatFloat(*f, 'g', -1, 64)
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case json.Number:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		return n, err == nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	}
	return 0, false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// Bind checks values (by param name) against q's params and returns the
// arguments in placeholder order. An absent or null value takes the
// param's default; a required param without one is an error, an optional
// one binds NULL. A name q does not declare is an error. Errors are
// *Error with CodeParams, naming the param.
func (q *Query) Bind(values map[string]any) ([]any, error) {
	for name := range values {
		if !slices.ContainsFunc(q.Params, func(p Param) bool { return p.Name == name }) {
			return nil, &Error{Code: CodeParams, Param: name, Msg: fmt.Sprintf("%s: %s takes no such parameter", name, q.ID)}
		}
	}
	if q.prep == nil {
		return nil, refusef(CodeNotValidated, "verified query %s was not validated", q.ID)
	}
	args := make([]any, len(q.prep.order))
	for i, name := range q.prep.order {
		p := q.param(name)
		v, ok := values[name]
		if !ok || v == nil {
			v = p.Default
		}
		if v == nil {
			if p.Required {
				return nil, &Error{Code: CodeParams, Param: name, Msg: name + ": is required"}
			}
			continue // NULL
		}
		b, err := p.check(v)
		if err != nil {
			return nil, err
		}
		args[i] = b
	}
	return args, nil
}

func (q *Query) param(name string) *Param {
	for i := range q.Params {
		if q.Params[i].Name == name {
			return &q.Params[i]
		}
	}
	return nil
}

// DecodeParams decodes a JSON object of parameter values (what the model
// or a client sent), keeping numbers exact, for Bind. Anything but one
// object is an error.
func DecodeParams(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, &Error{Code: CodeParams, Msg: "the parameters must be one JSON object"}
	}
	if dec.More() {
		return nil, &Error{Code: CodeParams, Msg: "the parameters must be one JSON object"}
	}
	return m, nil
}

// Examples returns the example values of q's params (nil where a param has
// none), for `curated test` and for planning at validation.
func (q *Query) Examples() map[string]any {
	out := map[string]any{}
	for _, p := range q.Params {
		if p.Example != nil {
			out[p.Name] = p.Example
		}
	}
	return out
}
