package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine"
)

// VerifiedRunner is what the verified-query tools need of the engine.
type VerifiedRunner interface {
	ListVerified(ctx context.Context, datasource string) ([]curated.Summary, error)
	RunVerified(ctx context.Context, id string, params map[string]any) (*engine.Result, error)
}

// ListVerifiedArgs is list_verified_queries' input.
type ListVerifiedArgs struct {
	Datasource string `json:"datasource,omitempty"`
}

// VerifiedList is list_verified_queries' output.
type VerifiedList struct {
	VerifiedQueries []curated.Summary `json:"verified_queries"`
}

// ListVerifiedQueriesTool describes list_verified_queries.
func ListVerifiedQueriesTool() mcpgo.Tool {
	return readOnlyTool("list_verified_queries", "List verified queries",
		"List the verified queries you may run: human-reviewed SQL run by id with typed parameters. Shows id, datasource, description, example questions and each parameter's type and constraints (never the SQL). ask already returns those that match a question; list them to browse.",
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string", "maxLength": 128}}, "additionalProperties": false}`),
		json.RawMessage(`{"type": "object", "properties": {"verified_queries": {"type": "array", "items": {"type": "object"}}}, "required": ["verified_queries"]}`))
}

// ListVerifiedQueriesHandler answers list_verified_queries calls.
func ListVerifiedQueriesHandler(eng VerifiedRunner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args ListVerifiedArgs
		if bad := bindStrict(req, &args, `{"datasource"?: string}`); bad != nil {
			return bad, nil
		}
		list, err := eng.ListVerified(ctx, args.Datasource)
		if err != nil {
			return errorResult(err), nil
		}
		out := VerifiedList{VerifiedQueries: list}
		var b strings.Builder
		for _, q := range out.VerifiedQueries {
			names := make([]string, len(q.Params))
			for i, p := range q.Params {
				names[i] = p.Name + ":" + p.Type
			}
			fmt.Fprintf(&b, "%s (%s): %s [%s]\n", q.ID, q.Datasource, q.Description, strings.Join(names, ", "))
		}
		if len(out.VerifiedQueries) == 0 {
			b.WriteString("no verified queries you may run\n")
		}
		return FitStructured(eng, out, b.String()), nil
	}
}

// RunVerifiedArgs is run_verified_query's input.
type RunVerifiedArgs struct {
	ID     string         `json:"id"`
	Params map[string]any `json:"params,omitempty"`
	Binary Binary         `json:"binary,omitempty"`
}

const runVerifiedShape = `{"id": string, "params"?: object, "binary"?: "placeholder" | "base64"}`

// RunVerifiedQueryTool describes run_verified_query.
func RunVerifiedQueryTool() mcpgo.Tool {
	return withView(readOnlyTool("run_verified_query", "Run a verified query",
		"Run a verified query by id with parameter values (see list_verified_queries for ids and parameter types). Values are checked and bound by the database driver, never written into SQL. Returns rows like ask.",
		json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string", "maxLength": 128}, "params": {"type": "object"}, `+binaryArg+`}, "required": ["id"], "additionalProperties": false}`),
		askOutputSchema))
}

// RunVerifiedQueryHandler answers run_verified_query calls.
func RunVerifiedQueryHandler(eng VerifiedRunner) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args RunVerifiedArgs
		if bad := bindStrict(req, &args, runVerifiedShape); bad != nil {
			return bad, nil
		}
		if bad := args.Binary.check(); bad != nil {
			return bad, nil
		}
		res, err := eng.RunVerified(ctx, args.ID, args.Params)
		if err != nil {
			return errorResult(err), nil
		}
		return FitResultFor(ctx, eng, res, args.Binary), nil
	}
}
