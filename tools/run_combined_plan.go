package tools

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// CombinedRunner is what run_combined_plan needs of the engine.
type CombinedRunner interface {
	RunCombined(ctx context.Context, doc []byte) (*engine.Result, error)
}

// CombinedPlanArgs is run_combined_plan's input: the engine's
// multi.PlannedQuery, and the binary mode. Plans stay raw JSON: the plan
// language decodes them with its own limits and rules.
type CombinedPlanArgs struct {
	Sources []CombinedSource `json:"sources"`
	Combine json.RawMessage  `json:"combine"`
	Binary  Binary           `json:"binary,omitempty"`
}

// CombinedSource is one source of a combined plan.
type CombinedSource struct {
	Name       string          `json:"name"`
	Datasource string          `json:"datasource"`
	Plan       json.RawMessage `json:"plan"`
}

const combinedPlanShape = `{"sources": [{"name": string, "datasource": string, "plan": object}, …], "combine": object (a plan whose from names the sources)}`

var combinedPlanInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "sources": {"type": "array", "minItems": 1, "maxItems": 8, "description": "One plan per datasource, each run where its data lives (as run_plan runs it) and bringing at most 100,000 rows to the combination (its rows go to the combination, not to you, so the datasource's row_limit does not cut them): filter and aggregate here, so that only the rows the combination needs leave the datasource.",
      "items": {"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 63, "description": "The name the combine plan reads this source's rows by, as a table: letters, digits, _."},
        "datasource": {"type": "string", "maxLength": 128, "description": "Datasource id from list_datasources."},
        "plan": {"type": "object", "description": "A query plan in the plan language (get_plan_schema) on that datasource. Alias every output column: the aliases are the column names the combine plan reads."}},
        "required": ["name", "datasource", "plan"], "additionalProperties": false}},
    "combine": {"type": "object", "description": "A query plan in the plan language whose from and join items name sources (\"table\": the source's name); it joins, filters, aggregates and sorts their rows in an in-memory DuckDB, with the same functions as any plan."}
  },
  "required": ["sources", "combine"],
  "additionalProperties": false
}`)

// RunCombinedPlanTool describes the run_combined_plan tool.
func RunCombinedPlanTool() mcpgo.Tool {
	return withView(readOnlyTool("run_combined_plan", "Run plans across datasources",
		"Answer a question that needs rows from several datasources (e.g. tickets in one database, subscriptions in another, related by an account id): write one plan per datasource (sources) and a combine plan that joins or compares their results by name. Every plan is validated against its datasource's schema and your access before anything runs; each source runs read-only on its own database, and the combination runs in an in-memory DuckDB. Returns the combined rows, each source's SQL and a short answer, like run_plan.",
		withBinaryArg(combinedPlanInputSchema),
		askOutputSchema))
}

// RunCombinedPlanHandler answers run_combined_plan calls.
func RunCombinedPlanHandler(eng CombinedRunner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args CombinedPlanArgs
		if bad := bindStrict(req, &args, combinedPlanShape); bad != nil {
			return bad, nil
		}
		if len(args.Sources) == 0 || len(args.Combine) == 0 || string(args.Combine) == "null" {
			return invalidRequest("sources and combine are required", "send "+combinedPlanShape), nil
		}
		if bad := args.Binary.check(); bad != nil {
			return bad, nil
		}
		for i := range args.Sources { // a host may send a plan as a JSON string
			args.Sources[i].Plan = PlanObject(args.Sources[i].Plan)
		}
		doc, err := json.Marshal(struct {
			Sources []CombinedSource `json:"sources"`
			Combine json.RawMessage  `json:"combine"`
		}{args.Sources, PlanObject(args.Combine)})
		if err != nil {
			return invalidRequest("a plan is not valid JSON: "+err.Error(), "send "+combinedPlanShape), nil
		}
		res, err := eng.RunCombined(ctx, doc)
		if err != nil {
			return errorResult(err), nil
		}
		return FitResultFor(ctx, eng, res, args.Binary), nil
	}
}
