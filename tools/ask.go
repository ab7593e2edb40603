package tools

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// Asker is what the ask tool needs of the engine.
type Asker interface {
	Ask(ctx context.Context, req engine.AskRequest) (*engine.Result, error)
}

// AskArgs is the ask tool's input.
type AskArgs struct {
	Question   string `json:"question"`
	Datasource string `json:"datasource,omitempty"`
}

const askShape = `{"question": string, "datasource"?: string}`

var askInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "question": {"type": "string", "maxLength": 4096, "description": "The question, in natural language."},
    "datasource": {"type": "string", "maxLength": 128, "description": "Optional datasource id from list_datasources; omit to let the server choose."}
  },
  "required": ["question"],
  "additionalProperties": false
}`)

var askOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "question": {"type": "string"},
    "answer": {"type": "string", "description": "Short summary drawn from the first rows."},
    "columns": {"type": "array", "items": {"type": "string"}},
    "column_types": {"type": "array", "items": {"type": "string"}},
    "rows": {"type": "array", "items": {"type": "array", "items": {"type": ["string", "number", "boolean", "null"]}}},
    "row_count": {"type": "integer"},
    "truncated": {"type": "boolean", "description": "True when rows were cut: see truncated_reason."},
    "truncated_reason": {"type": "string", "enum": ["row_limit", "token_budget"], "description": "row_limit: the query stopped at the datasource's row limit; token_budget: this result holds only the leading rows that fit the result's token budget (query_row_count says how many the query returned)."},
    "query_row_count": {"type": "integer", "description": "Rows the query returned, when the result holds fewer (truncated_reason token_budget)."},
    "sql": {"type": "string", "description": "The SQL that ran, rendered from the validated plan."},
    "plan": {"type": ["object", "null"], "description": "The validated plan (null when a verified query answered)."},
    "sub_queries": {"type": "array", "items": {"type": "object"}},
    "warnings": {"type": "array", "items": {"type": "string"}},
    "usage": {"type": "object"},
    "scaling": {"type": "object", "description": "Present when test-time scaling is configured: candidates, result buckets, selection, degraded, calls and tokens per stage."}
  },
  "required": ["answer", "columns", "rows", "truncated", "sql", "plan"]
}`)

// AskTool describes the ask tool.
func AskTool() mcpgo.Tool {
	return readOnlyTool("ask", "Ask a question of the data",
		"Answer a question about the configured databases. The server plans a typed query, validates it against the schema, runs it read-only with a row limit and returns the rows, the SQL and a short answer.",
		askInputSchema,
		askOutputSchema)
}

// AskHandler answers ask calls with eng.
func AskHandler(eng Asker) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args AskArgs
		if bad := bindStrict(req, &args, askShape); bad != nil {
			return bad, nil
		}
		ctx = withEvents(withProgress(ctx, req))
		res, err := eng.Ask(ctx, engine.AskRequest{Question: args.Question, Datasource: args.Datasource})
		if a, ok := eng.(Approver); ok && err != nil {
			res, err = approveInline(ctx, a, err) // elicitation (tools/approvals.go)
		}
		if err != nil {
			return errorResult(err), nil
		}
		return FitResult(eng, res, BinaryPlaceholder), nil
	}
}

// withProgress makes the engine's step progress into MCP progress
// notifications when the call carries a progress token.
func withProgress(ctx context.Context, req mcpgo.CallToolRequest) context.Context {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return ctx
	}
	token := req.Params.Meta.ProgressToken
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return ctx
	}
	return engine.WithProgress(ctx, func(step string, i, n int) {
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": i, "total": n, "message": step,
		})
	})
}
