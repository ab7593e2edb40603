package planschema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// openAIKeywords is the JSON Schema subset OpenAI's structured outputs
// accept in strict mode ("Supported schemas" in OpenAI's Structured Outputs
// guide): types string, number, boolean, integer, object, array, null, enum,
// anyOf, $defs/$ref, plus descriptions and a few value constraints.
var openAIKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"enum": true, "anyOf": true, "$ref": true, "$defs": true, "description": true, "title": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true,
}

func TestPlanSchemaStrictRules(t *testing.T) {
	for name, raw := range map[string]json.RawMessage{"plan": Strict(), "answer": Answer()} {
		t.Run(name, func(t *testing.T) {
			var root map[string]any
			if err := json.Unmarshal(raw, &root); err != nil {
				t.Fatal(err)
			}
			if root["type"] != "object" {
				t.Fatalf("root type = %v, want object (strict mode refuses a root anyOf)", root["type"])
			}
			defs, _ := root["$defs"].(map[string]any)
			props, enums, names := 0, 0, 0
			var walk func(path string, v any, depth int)
			walk = func(path string, v any, depth int) {
				switch x := v.(type) {
				case map[string]any:
					for k := range x {
						if !openAIKeywords[k] {
							t.Errorf("%s: keyword %q is outside the strict-mode subset", path, k)
						}
					}
					if ref, ok := x["$ref"].(string); ok {
						if !strings.HasPrefix(ref, "#/$defs/") || defs[strings.TrimPrefix(ref, "#/$defs/")] == nil {
							t.Errorf("%s: $ref %q does not resolve inside $defs (Ollama resolves only #/$defs/...)", path, ref)
						}
					}
					if p, ok := x["properties"].(map[string]any); ok {
						props += len(p)
						if x["additionalProperties"] != false {
							t.Errorf("%s: additionalProperties must be false", path)
						}
						req, _ := x["required"].([]any)
						if len(req) != len(p) {
							t.Errorf("%s: %d properties but %d required; strict mode needs all", path, len(p), len(req))
						}
						for k := range p {
							names += len(k)
						}
						if depth > 10 {
							t.Errorf("%s: nesting depth %d exceeds 10", path, depth)
						}
						depth++
					}
					if e, ok := x["enum"].([]any); ok {
						enums += len(e)
					}
					for k, c := range x {
						if k == "properties" || k == "$defs" {
							for name, sub := range c.(map[string]any) {
								walk(path+"/"+k+"/"+name, sub, depth)
							}
							continue
						}
						walk(path+"/"+k, c, depth)
					}
				case []any:
					for _, c := range x {
						walk(path, c, depth)
					}
				}
			}
			walk("#", root, 0)
			if props > 5000 {
				t.Errorf("%d properties; strict mode allows 5000", props)
			}
			if enums > 1000 {
				t.Errorf("%d enum values; strict mode allows 1000", enums)
			}
			if len(raw) > 120000 {
				t.Errorf("schema is %d bytes", len(raw))
			}
			if string(raw) != string(JSONSchemaFor(name)) {
				t.Error("the schema is not deterministic")
			}
		})
	}
}

func JSONSchemaFor(name string) json.RawMessage {
	if name == "plan" {
		return Strict()
	}
	return Answer()
}

// Every kind of the closed expression set has a schema variant, and every
// allow-listed function name appears in an enum.
func TestPlanSchemaCoversLanguage(t *testing.T) {
	s := string(Strict())
	for _, k := range planast.Kinds {
		if !strings.Contains(s, `"enum":["`+k+`"]`) {
			t.Errorf("kind %q has no schema variant", k)
		}
	}
	for name := range planast.Functions {
		if !strings.Contains(s, `"`+name+`"`) {
			t.Errorf("function %s is missing from the schema", name)
		}
	}
}
