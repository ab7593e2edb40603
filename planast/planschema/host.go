package planschema

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Host returns the plan's JSON Schema (draft 2020-12) in the form
// written for host assistants that plan through get_plan_schema and
// run_plan and may validate a plan before sending it. It is generated from
// the same Go types as JSONSchema, with the same enums and no extra
// properties anywhere, but only the fields Decode needs are required;
// optional ones may be omitted or null, as the guide's examples do.
//
// Its promise: a document it accepts is never refused by Decode for its
// shape (only for size: Limits are not expressed). The rules Decode applies
// beyond JSON types are written into it: exactly one of table and subquery
// in a from item, and of list and subquery in an in expression; non-empty
// IN lists and case arms; a literal's value fitting its type, with real
// calendar dates; 64-bit integers; no NUL characters in strings; a select
// item's alias never empty. Decode
// also takes a few spellings the schema does not list (upper-case enum
// values but function names, "==" and "<>", function names outside the
// allow-list, which the validator then refuses), and select is required although only the
// validator refuses a query without one.
func Host() json.RawMessage {
	m := reflectPlan(reflect.TypeOf(planast.Query{}))
	defs := m["$defs"].(map[string]any)
	for name, d := range defs {
		hostObject(name, d.(map[string]any))
	}
	hostPatches(defs)
	hoist(m, "Query")
	m["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	m["title"] = "nl2sql plan"
	m["description"] = "A query plan for run_plan (host form: optional fields may be omitted or null). " +
		"The server also bounds a plan's size: 256 KiB, 4000 nodes, nesting depth 64."
	constToEnum(m)
	out, err := json.Marshal(m)
	if err != nil {
		panic("planast: host plan schema: " + err.Error())
	}
	return out
}

// hostOptional lists fields the Go types mark required (no omitempty) that
// Decode nevertheless lets a plan omit: it fills in a default (join type
// inner, COUNT() as COUNT(*)) or the validator decides (a column's alias
// names it; a join may have only a condition).
var hostOptional = map[string][]string{
	"Query":      {"from"},
	"SelectItem": {"alias"},
	"Join":       {"type", "on"},
	"FuncExpr":   {"args"},
	"WindowExpr": {"args"},
}

// Value patterns, each in the syntax shared by ECMAScript and RE2 so that a
// host's validator and ours read them alike.
const (
	noNUL      = `^[^\x00]*$`
	intText    = `^[+-]?[0-9]{1,18}$`
	decText    = `^-?[0-9]{1,38}(\.[0-9]{1,38})?$`
	year       = `(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})`
	monthDay   = `((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))`
	leapDay    = `([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)-02-29`
	calDate    = `(` + year + `-` + monthDay + `|` + leapDay + `)`
	clock      = `([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?`
	datePat    = `^` + calDate + `$`
	timePat    = `^` + calDate + `[ T]` + clock + `$`
	maxInt64   = json.Number("9223372036854775807")
	minInt64   = json.Number("-9223372036854775808")
	maxFloat64 = json.Number("1.7976931348623157e308")
)

// hostObject applies the host form's rules to one definition: required as
// Decode requires, optional fields nullable, strings free of NUL, integers
// within 64 bits, no additional properties.
func hostObject(name string, d map[string]any) {
	props, ok := d["properties"].(map[string]any)
	if !ok {
		return
	}
	req := map[string]bool{}
	if r, ok := d["required"].([]any); ok {
		for _, k := range r {
			req[k.(string)] = true
		}
	}
	for _, k := range hostOptional[name] {
		delete(req, k)
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var required []any
	for _, k := range keys {
		p := props[k].(map[string]any)
		hostScalar(p)
		if items, ok := p["items"].(map[string]any); ok {
			hostScalar(items)
		}
		if req[k] {
			required = append(required, k)
		} else {
			props[k] = nullable(p)
		}
	}
	if len(required) > 0 {
		d["required"] = required
	} else {
		delete(d, "required")
	}
	d["additionalProperties"] = false
}

func hostScalar(p map[string]any) {
	switch p["type"] {
	case "string":
		if _, isEnum := p["enum"]; !isEnum && p["const"] == nil {
			p["pattern"] = noNUL
		}
	case "integer":
		p["minimum"], p["maximum"] = minInt64, maxInt64
	}
}

// hostPatches writes the rules Decode applies across fields.
func hostPatches(defs map[string]any) {
	props := func(name string) map[string]any {
		return defs[name].(map[string]any)["properties"].(map[string]any)
	}
	null := map[string]any{"type": "null"}

	q := props("Query")
	q["select"].(map[string]any)["minItems"] = 1
	// a row count is never negative (the validator refuses it)
	q["limit"].(map[string]any)["minimum"] = 0
	q["offset"].(map[string]any)["minimum"] = 0

	// a from item reads exactly one of a table (non-empty name) and a subquery
	defs["From"].(map[string]any)["anyOf"] = []any{
		map[string]any{"required": []any{"table"}, "properties": map[string]any{
			"table": map[string]any{"type": "string", "minLength": 1}, "subquery": null}},
		map[string]any{"required": []any{"subquery"}, "properties": map[string]any{
			"subquery": map[string]any{"type": "object"}, "table": map[string]any{"enum": []any{nil, ""}}}},
	}

	// an in expression has exactly one of a non-empty list and a subquery
	in := props("InExpr")
	nonEmpty(in["list"].(map[string]any))
	defs["InExpr"].(map[string]any)["anyOf"] = []any{
		map[string]any{"required": []any{"list"}, "properties": map[string]any{
			"list": map[string]any{"type": "array"}, "subquery": null}},
		map[string]any{"required": []any{"subquery"}, "properties": map[string]any{
			"subquery": map[string]any{"type": "object"}, "list": null}},
	}

	nonEmpty(props("CaseExpr")["whens"].(map[string]any))

	// an empty select alias is refused (left out or null names the
	// column after its source); the validator's further rule for names
	// people read (no blank one, no hidden character) is left to its
	// refusal, whose hint says it, rather than a pattern every
	// get_plan_schema would carry
	props("SelectItem")["alias"].(map[string]any)["minLength"] = 1

	defs["LiteralExpr"] = hostLiteral()

	// the validator reads function names case-insensitively; hosts write both
	for _, def := range []string{"FuncExpr", "WindowExpr"} {
		p := props(def)["name"].(map[string]any)
		var names []any
		for _, n := range p["enum"].([]any) {
			if n != nil {
				names = append(names, n)
			}
		}
		for _, n := range names {
			p["enum"] = append(p["enum"].([]any), strings.ToLower(n.(string)))
		}
	}
}

// nonEmpty sets minItems 1 on an array schema, possibly made nullable.
func nonEmpty(p map[string]any) {
	if p["type"] == "array" {
		p["minItems"] = 1
		return
	}
	if alts, ok := p["anyOf"].([]any); ok {
		for _, a := range alts {
			if m := a.(map[string]any); m["type"] == "array" {
				m["minItems"] = 1
			}
		}
	}
	if ts, ok := p["type"].([]any); ok && len(ts) > 0 && ts[0] == "array" {
		p["minItems"] = 1
	}
}

// hostLiteral is a literal whose value fits its type: one branch per type,
// and one for an omitted type, which Decode infers from the JSON value.
func hostLiteral() map[string]any {
	str := func(pattern string) map[string]any { return map[string]any{"type": "string", "pattern": pattern} }
	finite := map[string]any{"type": "number", "minimum": json.Number("-" + string(maxFloat64)), "maximum": maxFloat64}
	typed := func(t string, value any) any {
		return map[string]any{"required": []any{"type", "value"}, "properties": map[string]any{
			"type": map[string]any{"const": t}, "value": value}}
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"kind": map[string]any{"type": "string", "const": "literal"},
			"type": map[string]any{"type": []any{"string", "null"},
				"enum":        []any{"string", "integer", "decimal", "boolean", "date", "timestamp", "null", nil},
				"description": "The literal's type; omit it to infer it from the value. Dates are YYYY-MM-DD, timestamps YYYY-MM-DD HH:MM:SS, decimals may be strings"},
			"value": map[string]any{"description": "The value, of the JSON type its literal type needs (an integer beyond 2^53 may be a string of its digits, which a client reading JSON numbers as doubles cannot round); null for a null literal"},
		},
		"required":             []any{"kind"},
		"additionalProperties": false,
		"anyOf": []any{
			// a null literal says so: "type": "null", or "value": null
			// written (neither is a value left out, refused)
			map[string]any{"required": []any{"type"}, "properties": map[string]any{
				"type": map[string]any{"const": "null"}, "value": map[string]any{"type": "null"}}},
			map[string]any{"required": []any{"value"}, "properties": map[string]any{
				"type": map[string]any{"type": "null"}, "value": map[string]any{"type": "null"}}},
			map[string]any{"required": []any{"value"}, "properties": map[string]any{
				"type":  map[string]any{"type": "null"},
				"value": map[string]any{"anyOf": []any{map[string]any{"type": "boolean"}, str(noNUL), finite}}}},
			typed("boolean", map[string]any{"type": "boolean"}),
			typed("integer", map[string]any{"anyOf": []any{
				map[string]any{"type": "integer", "minimum": minInt64, "maximum": maxInt64}, str(intText)}}),
			typed("decimal", map[string]any{"anyOf": []any{finite, str(decText)}}),
			typed("string", str(noNUL)),
			typed("date", str(datePat)),
			typed("timestamp", str(timePat)),
		},
	}
}
