package planschema

import (
	"encoding/json"
	"reflect"
	"sort"

	"github.com/invopop/jsonschema"

	"github.com/nl2sql/nl2sql/planast"
)

// JSONSchema returns the JSON Schema (draft 2020-12) of a plan, as given to
// models for structured output. It is generated from the Go types of this
// package (github.com/invopop/jsonschema reflects the structs; the closed
// expression set becomes an anyOf of one definition per kind), then made
// strict: every object lists all its properties as required, optional ones
// are nullable, and no object allows extra properties. Recursion goes
// through "$defs". Decode accepts every document the schema accepts and also
// the shorter forms people write (omitted optional fields).
func Strict() json.RawMessage {
	return schemaFor(reflect.TypeOf(planast.Query{}), "Query")
}

// Answer wraps the plan schema in the planner's answer object
// {"reasoning": string, "plan": Query}.
func Answer() json.RawMessage {
	return schemaFor(reflect.TypeOf(PlanAnswer{}), "PlanAnswer")
}

// PlanAnswer is the planner's answer: a short explanation, then the plan.
type PlanAnswer struct {
	Reasoning string         `json:"reasoning" jsonschema:"description=One or two sentences on how the plan answers the question"`
	Plan      *planast.Query `json:"plan"`
}

var exprNodes = []struct {
	kind string
	typ  reflect.Type
}{
	{"column", reflect.TypeOf(planast.Column{})},
	{"binary", reflect.TypeOf(planast.Binary{})},
	{"unary", reflect.TypeOf(planast.Unary{})},
	{"in", reflect.TypeOf(planast.In{})},
	{"exists", reflect.TypeOf(planast.Exists{})},
	{"subquery", reflect.TypeOf(planast.Subquery{})},
	{"between", reflect.TypeOf(planast.Between{})},
	{"like", reflect.TypeOf(planast.Like{})},
	{"is_null", reflect.TypeOf(planast.IsNull{})},
	{"case", reflect.TypeOf(planast.Case{})},
	{"cast", reflect.TypeOf(planast.Cast{})},
	{"func", reflect.TypeOf(planast.Func{})},
	{"window", reflect.TypeOf(planast.Window{})},
	{"metric", reflect.TypeOf(planast.MetricRef{})},
	{"filter", reflect.TypeOf(planast.FilterRef{})},
}

var (
	exprType = reflect.TypeOf((*planast.Expr)(nil)).Elem()
	enumOf   = map[reflect.Type][]any{
		reflect.TypeOf(planast.JoinType("")):  {"inner", "left", "right", "full"},
		reflect.TypeOf(planast.SetOpKind("")): {"union", "union_all", "intersect", "except"},
		reflect.TypeOf(planast.Direction("")): {"asc", "desc"},
		reflect.TypeOf(planast.Nulls("")):     {"first", "last"},
		reflect.TypeOf(planast.CastType("")):  {"integer", "decimal", "float", "text", "boolean", "date", "timestamp"},
	}
)

func schemaFor(root reflect.Type, rootName string) json.RawMessage {
	m := reflectPlan(root)
	hoist(m, rootName)
	strict(m)
	constToEnum(m)
	out, err := json.Marshal(m)
	if err != nil {
		panic("planast: plan schema: " + err.Error())
	}
	return out
}

// reflectPlan reflects root and the expression nodes into one schema whose
// root is a "$ref" into "$defs", before either form's rules are applied.
func reflectPlan(root reflect.Type) map[string]any {
	r := &jsonschema.Reflector{
		Anonymous: true,
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if t == exprType {
				return &jsonschema.Schema{Ref: "#/$defs/Expr"}
			}
			if vals, ok := enumOf[t]; ok {
				return &jsonschema.Schema{Type: "string", Enum: vals}
			}
			return nil
		},
	}
	s := r.ReflectFromType(root)
	s.Version = ""
	defs := s.Definitions
	if defs == nil {
		defs = jsonschema.Definitions{}
	}
	var variants []*jsonschema.Schema
	for _, n := range exprNodes {
		ns := r.ReflectFromType(n.typ)
		for k, v := range ns.Definitions {
			defs[k] = v
		}
		name := n.typ.Name() + "Expr"
		body := ns
		if ns.Ref != "" { // the node itself lives in its own $defs entry
			body = ns.Definitions[n.typ.Name()]
			delete(defs, n.typ.Name())
		}
		body.Version = ""
		body.Definitions = nil
		// "kind" first: the discriminator.
		props := body.Properties
		body.Properties = jsonschema.NewProperties()
		body.Properties.Set("kind", &jsonschema.Schema{Type: "string", Const: n.kind})
		for p := props.Oldest(); p != nil; p = p.Next() {
			body.Properties.Set(p.Key, p.Value)
		}
		body.Required = append([]string{"kind"}, body.Required...)
		defs[name] = body
		variants = append(variants, &jsonschema.Schema{Ref: "#/$defs/" + name})
	}
	defs["LiteralExpr"] = literalSchema()
	variants = append(variants, &jsonschema.Schema{Ref: "#/$defs/LiteralExpr"})
	defs["Expr"] = &jsonschema.Schema{AnyOf: variants}
	fn := defs["FuncExpr"].Properties
	if p, ok := fn.Get("name"); ok {
		p.Enum = funcNames(func(s planast.FuncSpec) bool { return s.Kind != planast.WindowOnly })
	}
	if p, ok := defs["WindowExpr"].Properties.Get("name"); ok {
		p.Enum = funcNames(func(s planast.FuncSpec) bool { return s.Kind != planast.Scalar })
	}
	s.Definitions = defs
	b, err := json.Marshal(s)
	if err != nil {
		panic("planast: plan schema: " + err.Error())
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic("planast: plan schema: " + err.Error())
	}
	return m
}

// hoist copies the root definition to the top level, as OpenAI's strict
// mode wants an object there; recursion keeps pointing at "#/$defs/Query"
// (Ollama's grammar converter resolves only "#/$defs/..." references).
func hoist(m map[string]any, rootName string) {
	if rootName != "" {
		if ref, ok := m["$ref"].(string); ok && ref == "#/$defs/"+rootName {
			d := m["$defs"].(map[string]any)
			body := d[rootName].(map[string]any)
			delete(m, "$ref")
			for k, v := range body {
				m[k] = v
			}
		}
	}
}

func literalSchema() *jsonschema.Schema {
	p := jsonschema.NewProperties()
	p.Set("kind", &jsonschema.Schema{Type: "string", Const: "literal"})
	p.Set("type", &jsonschema.Schema{Type: "string", Enum: []any{"string", "integer", "decimal", "boolean", "date", "timestamp", "null"},
		Description: "The literal's type; dates are YYYY-MM-DD, timestamps YYYY-MM-DD HH:MM:SS, decimals may be strings"})
	p.Set("value", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "null"}}})
	return &jsonschema.Schema{Type: "object", Properties: p, Required: []string{"kind", "type", "value"}}
}

func funcNames(keep func(planast.FuncSpec) bool) []any {
	var names []string
	for n, s := range planast.Functions {
		if keep(s) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// constToEnum writes "const": x as "enum": [x], its equivalent, because
// not every provider's structured-output subset lists const.
func constToEnum(v any) {
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x["const"]; ok {
			x["enum"] = []any{c}
			delete(x, "const")
		}
		for _, c := range x {
			constToEnum(c)
		}
	case []any:
		for _, c := range x {
			constToEnum(c)
		}
	}
}

// strict rewrites every object schema in place: all properties required,
// those that were optional made nullable, additionalProperties false.
func strict(v any) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			req := map[string]bool{}
			if r, ok := x["required"].([]any); ok {
				for _, k := range r {
					req[k.(string)] = true
				}
			}
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			all := make([]any, len(keys))
			for i, k := range keys {
				all[i] = k
				if !req[k] {
					props[k] = nullable(props[k].(map[string]any))
				}
			}
			x["required"] = all
			x["additionalProperties"] = false
		}
		for _, c := range x {
			strict(c)
		}
	case []any:
		for _, c := range x {
			strict(c)
		}
	}
}

func nullable(p map[string]any) map[string]any {
	if t, ok := p["type"].(string); ok {
		p["type"] = []any{t, "null"}
		if e, ok := p["enum"].([]any); ok {
			p["enum"] = append(e, nil)
		}
		return p
	}
	out := map[string]any{"anyOf": []any{p, map[string]any{"type": "null"}}}
	if d, ok := p["description"]; ok {
		out["description"] = d
	}
	return out
}
