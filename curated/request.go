package curated

import (
	"encoding/json"
	"strings"
)

// ParamSchema returns the JSON Schema (draft 2020-12) of q's parameter
// object: one property per param with its type and checks, required
// listing the required params without a default, no other properties. Use
// it as the model's structured-output schema when it fills the values, and
// as the input schema of run_verified_query's params. Bind remains the
// check: a schema-valid object can still fail it (a date that does not
// exist).
func (q *Query) ParamSchema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range q.Params {
		s := map[string]any{}
		switch p.Type {
		case TypeString:
			s["type"] = "string"
			if p.Pattern != "" {
				s["pattern"] = p.Pattern
			}
			if p.Choices != nil {
				s["enum"] = p.Choices
			}
			if p.MaxLength != nil {
				s["maxLength"] = *p.MaxLength
			}
		case TypeDate:
			s["type"] = "string"
			s["format"] = "date"
			s["pattern"] = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
		case TypeInteger, TypeNumber:
			s["type"] = p.Type
			if p.Min != nil {
				s["minimum"] = *p.Min
			}
			if p.Max != nil {
				s["maximum"] = *p.Max
			}
		case TypeBoolean:
			s["type"] = "boolean"
		}
		desc := p.Description
		if p.Example != nil {
			ex, _ := json.Marshal(p.Example)
			desc = strings.TrimSpace(desc + " (example: " + string(ex) + ")")
			s["examples"] = []any{p.Example}
		}
		if desc != "" {
			s["description"] = desc
		}
		if p.Default != nil {
			s["default"] = p.Default
		}
		props[p.Name] = s
		if p.Required && p.Default == nil {
			required = append(required, p.Name)
		}
	}
	return map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// ParamRequest is what the model gets to fill a matched verified query's
// parameters from the question. The model never sees the SQL: it answers
// one JSON object valid against Schema, which Bind then checks.
//
// JSON shape:
//
//	{"question": "...", "query_id": "revenue_by_country",
//	 "description": "Revenue per billing country for one year",
//	 "params": [{"name": "year", "type": "string", "required": true, "pattern": "^[0-9]{4}$", "example": "2024"}],
//	 "schema": {<ParamSchema>}, "instructions": "..."}
type ParamRequest struct {
	Question     string         `json:"question"`
	QueryID      string         `json:"query_id"`
	Description  string         `json:"description"`
	Params       []Param        `json:"params"`
	Schema       map[string]any `json:"schema"`
	Instructions string         `json:"instructions"`
}

// ParamInstructions is the instruction text of every ParamRequest.
const ParamInstructions = "Fill the parameters of the verified query described above from the user's question. " +
	"Answer with one JSON object that is valid against the schema and nothing else. " +
	"Use only values the question states or clearly implies (resolve relative dates such as \"last year\" against today's date); " +
	"leave out optional parameters the question does not determine. Never write SQL."

// NewParamRequest builds the request for question and q.
func NewParamRequest(q *Query, question string) ParamRequest {
	return ParamRequest{Question: question, QueryID: q.ID, Description: q.Description,
		Params: q.Params, Schema: q.ParamSchema(), Instructions: ParamInstructions}
}
