package tools

import (
	"context"
	"encoding/json"

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
	Datasource string          `json:"datasource"`
	Plan       json.RawMessage `json:"plan"`
}

const runPlanShape = `{"datasource": string, "plan": object (see get_plan_schema)}`

var runPlanInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasource": {"type": "string", "maxLength": 128, "description": "Datasource id from list_datasources."},
    "plan": {"type": "object", "description": "A query plan in the plan language (get_plan_schema gives its JSON Schema). Optional fields may be omitted."}
  },
  "required": ["datasource", "plan"],
  "additionalProperties": false
}`)

// RunPlanTool describes the run_plan tool.
func RunPlanTool() mcpgo.Tool {
	return readOnlyTool("run_plan", "Run a plan",
		"Run a query plan you wrote yourself (plan language, not SQL) on a datasource. The server validates it against the schema and your access, renders SQL for the database, runs it read-only with a row limit and returns the rows, the SQL and a short answer. Validation errors come back with codes, paths and hints so you can fix the plan.",
		runPlanInputSchema,
		askOutputSchema)
}

// RunPlanHandler answers run_plan calls.
func RunPlanHandler(eng PlanRunner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args RunPlanArgs
		if bad := bindStrict(req, &args, runPlanShape); bad != nil {
			return bad, nil
		}
		if len(args.Plan) == 0 || string(args.Plan) == "null" {
			return mcpgo.NewToolResultError("INVALID_REQUEST: the plan is missing\nhint: send " + runPlanShape), nil
		}
		res, err := eng.RunPlan(ctx, args.Datasource, args.Plan)
		if err != nil {
			return errorResult(err), nil
		}
		return mcpgo.NewToolResultStructured(res, ResultText(res)), nil
	}
}
