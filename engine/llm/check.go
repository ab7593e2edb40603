package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compiled caches compiled schemas by the sha256 of their bytes: the
// engine sends the same few schemas on every call.
var compiled sync.Map // [32]byte → *jsonschema.Schema

func compileSchema(schema json.RawMessage) (*jsonschema.Schema, error) {
	sum := sha256.Sum256(schema)
	if s, ok := compiled.Load(sum); ok {
		return s.(*jsonschema.Schema), nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("the request's schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("answer.json", doc); err != nil {
		return nil, err
	}
	s, err := c.Compile("answer.json")
	if err != nil {
		return nil, fmt.Errorf("the request's schema does not compile: %w", err)
	}
	compiled.Store(sum, s)
	return s, nil
}

// CheckOutput checks a model's answer text: one JSON value (a single
// surrounding ``` fence is tolerated) that satisfies schema (JSON Schema
// 2020-12; none means any JSON). It returns the JSON, or an
// *InvalidOutputError whose Reason names at most three of the deepest
// problems with their JSON Pointer paths, for the model to fix.
func CheckOutput(text string, schema json.RawMessage) (json.RawMessage, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "```") && strings.HasSuffix(s, "```") && len(s) >= 6 {
		s = strings.TrimSpace(strings.TrimSuffix(s[3:], "```"))
		if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") {
			s = strings.TrimSpace(s[i+1:]) // a language tag: ```json
		}
	}
	bad := func(reason string) error { return &InvalidOutputError{Content: cut(text, 2048), Reason: reason} }
	if s == "" {
		return nil, bad("the answer is empty; answer with one JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, bad("the answer is not JSON (" + err.Error() + "); answer with one JSON object and nothing else")
	}
	if dec.More() {
		return nil, bad("the answer holds more than one JSON value; answer with one JSON object and nothing else")
	}
	if len(schema) == 0 {
		return json.RawMessage(s), nil
	}
	sch, err := compileSchema(schema)
	if err != nil {
		return nil, err
	}
	if err := sch.Validate(v); err != nil {
		ve, ok := err.(*jsonschema.ValidationError)
		if !ok {
			return nil, bad("the answer does not match the schema: " + err.Error())
		}
		return nil, bad("the answer does not match the schema: " + schemaReason(ve))
	}
	return json.RawMessage(s), nil
}

// schemaReason lists up to three of the deepest leaf errors, "at /path:
// message", deepest first; anyOf branches make many leaves, and the deepest
// ones are nearest the mistake.
func schemaReason(ve *jsonschema.ValidationError) string {
	type leaf struct {
		path string
		msg  string
	}
	var leaves []leaf
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		m := u.Error.String()
		if strings.HasSuffix(m, "' failed") || strings.HasPrefix(m, "validation failed") {
			continue // a combinator's summary ("'anyOf' failed"); its leaves say why
		}
		p := u.InstanceLocation
		if p == "" {
			p = "/"
		}
		leaves = append(leaves, leaf{p, m})
	}
	if len(leaves) == 0 {
		return cut(ve.Error(), 500)
	}
	sort.SliceStable(leaves, func(i, j int) bool {
		return strings.Count(leaves[i].path, "/") > strings.Count(leaves[j].path, "/")
	})
	seen := map[leaf]bool{}
	var parts []string
	for _, l := range leaves {
		if seen[l] {
			continue
		}
		seen[l] = true
		if len(parts) < 3 {
			parts = append(parts, "at "+l.path+": "+l.msg)
		}
	}
	more := ""
	if n := len(seen) - len(parts); n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return cut(strings.Join(parts, "; "), 900) + more
}
