package tools

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/planast"
)

// PlanGuide is the short guide get_plan_schema returns beside the schema.
const PlanGuide = `A plan is a JSON query tree, never SQL. The server validates it against the schema and your access, renders SQL for the database and runs it read-only.

- "from" lists sources, each with an "alias"; the first is the base. Every later source is the "right" of exactly one join whose "left" is an alias already joined; "on" pairs a column of left with a column of right (use the foreign keys describe_schema lists).
- Expressions have a "kind": column {"table": alias, "column"}, literal {"type", "value"}, binary {"op", "left", "right"} ("/" is true division, "div" integer division), func {"name", "args", "distinct"}, window, case, cast, in, exists, subquery, between, like, is_null, unary.
- Every computed select item needs an "alias". With aggregates, put every other selected column in "group_by". Filter aggregates in "having".
- "order_by" may name an output column by alias: {"kind": "column", "column": "<alias>"}. "offset" needs "order_by". Results are capped at the datasource's row limit.
- Dates: DATE_PART(unit, x), DATE_TRUNC(unit, x), DATE_ADD(unit, n, x), DATE_DIFF_DAYS(end, start); unit is a string literal year|quarter|month|day.
- Where describe_schema lists a semantic layer, {"kind": "metric", "name", "table": alias} and {"kind": "filter", "name", "table": alias} use its definitions by name; the server expands them.`

// PlanExample is a complete plan: the artist with the most albums.
const PlanExample = `{"select": [{"expr": {"kind": "column", "table": "ar", "column": "Name"}, "alias": "artist"},
            {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "albums"}],
 "from": [{"table": "Artist", "alias": "ar"}, {"table": "Album", "alias": "al"}],
 "joins": [{"type": "inner", "left": "ar", "right": "al", "on": [{"left_column": "ArtistId", "right_column": "ArtistId"}]}],
 "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}, {"kind": "column", "table": "ar", "column": "Name"}],
 "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
 "limit": 1}`

// PlanSchemaOutput is get_plan_schema's structured output.
type PlanSchemaOutput struct {
	Guide   string          `json:"guide"`
	Example json.RawMessage `json:"example"`
	Form    string          `json:"form"`
	Schema  json.RawMessage `json:"schema"`
}

// PlanSchemaArgs is get_plan_schema's input: which form of the schema.
type PlanSchemaArgs struct {
	Form string `json:"form,omitempty"`
}

const planSchemaShape = `{"form": "host" | "strict"} (both optional)`

// GetPlanSchemaTool describes the get_plan_schema tool.
func GetPlanSchemaTool() mcpgo.Tool {
	return readOnlyTool("get_plan_schema", "Get the plan language",
		"Get the plan language's JSON Schema, a short guide and an example, for writing plans to pass to run_plan. "+
			"The default host form requires only the fields a plan needs (optional ones may be omitted or null): a plan it accepts is never refused for its shape. "+
			"form \"strict\" gives the same language with every property required and optional ones nullable, as OpenAI strict structured output needs.",
		json.RawMessage(`{"type": "object", "properties": {"form": {"type": "string", "enum": ["host", "strict"], "description": "Schema form; default host."}}, "additionalProperties": false}`),
		json.RawMessage(`{"type": "object", "properties": {"guide": {"type": "string"}, "example": {"type": "object"}, "form": {"type": "string"}, "schema": {"type": "object"}}, "required": ["guide", "example", "form", "schema"]}`))
}

// GetPlanSchemaHandler answers get_plan_schema calls.
func GetPlanSchemaHandler() server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args PlanSchemaArgs
		if bad := bindStrict(req, &args, planSchemaShape); bad != nil {
			return bad, nil
		}
		out := PlanSchemaOutput{Guide: PlanGuide, Form: "host", Schema: planast.HostJSONSchema()}
		switch args.Form {
		case "", "host":
		case "strict":
			out.Form, out.Schema = "strict", planast.JSONSchema()
		default:
			return mcpgo.NewToolResultError("INVALID_REQUEST: form must be \"host\" or \"strict\"\nhint: send " + planSchemaShape), nil
		}
		var ex json.RawMessage
		_ = json.Unmarshal([]byte(PlanExample), &ex)
		out.Example, _ = json.Marshal(ex)
		return mcpgo.NewToolResultStructured(out, PlanGuide+"\n\nExample:\n"+PlanExample+"\n\nJSON Schema ("+out.Form+" form):\n"+string(out.Schema)), nil
	}
}
