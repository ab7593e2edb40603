package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// PlanRunner is what run_plan needs of the engine.
type PlanRunner interface {
	RunPlan(ctx context.Context, datasource string, plan []byte) (*engine.Result, error)
}

// RunPlanArgs is run_plan's input. Plan stays raw JSON: the plan language
// decodes it with its own limits and rules.
type RunPlanArgs struct {
	Datasource string          `json:"datasource,omitempty"`
	Plan       json.RawMessage `json:"plan"`
	// Binary is how blob values come back (run_plan only): "placeholder"
	// (default) or "base64".
	Binary Binary `json:"binary,omitempty"`
}

const runPlanShape = `{"datasource"?: string, "plan": object (see get_plan_schema)}`

var runPlanInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasource": {"type": "string", "maxLength": 128, "description": "Datasource id from list_datasources; may be omitted when you can see only one."},
    "plan": {"type": "object", "description": "A query plan in the plan language (get_plan_schema gives its JSON Schema). Optional fields may be omitted."}
  },
  "required": ["plan"],
  "additionalProperties": false
}`)

// RunPlanTool describes the run_plan tool.
func RunPlanTool() mcpgo.Tool {
	return withView(readOnlyTool("run_plan", "Run a plan",
		"Run a query plan you wrote yourself (plan language, not SQL) on a datasource. The server validates it against the schema and your access, renders SQL for the database, runs it read-only with a row limit and returns the rows, the SQL and a short answer. Validation errors come back with codes, paths and hints so you can fix the plan.",
		withBinaryArg(runPlanInputSchema),
		askOutputSchema))
}

// RunPlanHandler answers run_plan calls.
func RunPlanHandler(eng PlanRunner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args RunPlanArgs
		if bad := bindStrict(req, &args, runPlanShape); bad != nil {
			return bad, nil
		}
		if len(args.Plan) == 0 || string(args.Plan) == "null" {
			return invalidRequest("the plan is missing", "send "+runPlanShape), nil
		}
		if bad := args.Binary.check(); bad != nil {
			return bad, nil
		}
		res, err := eng.RunPlan(ctx, args.Datasource, PlanObject(args.Plan))
		if err != nil {
			return errorResult(err), nil
		}
		return FitResultFor(ctx, eng, res, args.Binary), nil
	}
}

// binaryArg is the input schema of the binary argument.
const binaryArg = `"binary": {"type": "string", "enum": ["placeholder", "base64"], "description": "How blob values come back: placeholder (default: size and a short sha256, e.g. <binary 2,048 bytes sha256:1a2b3c4d>) or base64 (the exact bytes; large)."}`

// withBinaryArg adds the binary argument to an input schema whose
// properties end with "plan".
func withBinaryArg(schema json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(schema, &m); err != nil {
		panic("tools: bad input schema: " + err.Error())
	}
	var props map[string]json.RawMessage
	_ = json.Unmarshal(m["properties"], &props)
	var arg map[string]json.RawMessage
	_ = json.Unmarshal([]byte("{"+binaryArg+"}"), &arg)
	props["binary"] = arg["binary"]
	m["properties"], _ = json.Marshal(props)
	out, _ := json.Marshal(m)
	return out
}

// check refuses a binary mode other than the two.
func (b *Binary) check() *mcpgo.CallToolResult {
	switch *b {
	case "":
		*b = BinaryPlaceholder
	case BinaryPlaceholder, BinaryBase64:
	default:
		return invalidRequest(fmt.Sprintf("argument \"binary\" must be \"placeholder\" or \"base64\", not %q", string(*b)), "omit binary for placeholders")
	}
	return nil
}

// PlanObject returns the plan argument as the engine should read it: a
// JSON string whose text is one JSON object stands for that object. Many
// hosts serialise a nested argument a second time, and refusing the plan
// for its quoting made the model resend it quoted again. Any other string
// (broken JSON, SQL text) goes to the engine as it came, whose hint names
// what is wrong with it (engine/planning.SuppliedHint).
func PlanObject(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' {
		return raw
	}
	var text string
	if json.Unmarshal(t, &text) != nil {
		return raw
	}
	inner := bytes.TrimSpace([]byte(text))
	if len(inner) == 0 || inner[0] != '{' || !json.Valid(inner) {
		return raw
	}
	return inner
}
