package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/index"
)

// Searcher is what search_schema needs of the engine.
type Searcher interface {
	Search(ctx context.Context, datasource, text string) (*index.Selection, error)
	SemanticReader
}

// SearchOutput is search_schema's structured output: the selection and
// the semantic layer's entries for its tables.
type SearchOutput struct {
	*index.Selection
	Semantic *SemanticInfo `json:"semantic,omitempty"`
}

// SearchArgs is search_schema's input.
type SearchArgs struct {
	Datasource string `json:"datasource"`
	Text       string `json:"text"`
}

// SearchSchemaTool describes search_schema.
func SearchSchemaTool() mcpgo.Tool {
	return readOnlyTool("search_schema", "Search a schema",
		"Search a datasource's schema for a question or key words: the best-matching tables with their relevant columns (joined through foreign keys), and stored values that match words of the text with their exact spelling (e.g. 'Heavy Metal' for \"heavy metal\"). For clients that write plans themselves (run_plan).",
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string", "maxLength": 128}, "text": {"type": "string", "maxLength": 4096}}, "required": ["datasource", "text"], "additionalProperties": false}`),
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "tables": {"type": "array", "items": {"type": "object"}}, "values": {"type": "array", "items": {"type": "object"}}}, "required": ["datasource", "tables"]}`))
}

// SearchSchemaHandler answers search_schema calls.
func SearchSchemaHandler(eng Searcher) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args SearchArgs
		if bad := bindStrict(req, &args, `{"datasource": string, "text": string}`); bad != nil {
			return bad, nil
		}
		sel, err := eng.Search(ctx, args.Datasource, strings.TrimSpace(args.Text))
		if err != nil {
			return errorResult(err), nil
		}
		var b strings.Builder
		for _, t := range sel.Tables {
			fmt.Fprintf(&b, "%s: %s\n", t.Name, strings.Join(t.Columns, ", "))
		}
		for _, v := range sel.Values {
			fmt.Fprintf(&b, "value %s.%s = %q\n", v.Table, v.Column, v.Value)
		}
		names := make([]string, len(sel.Tables))
		for i, t := range sel.Tables {
			names[i] = t.Name
		}
		info, err := semanticFor(ctx, eng, args.Datasource, names)
		if err != nil {
			return errorResult(err), nil
		}
		return mcpgo.NewToolResultStructured(SearchOutput{sel, info}, b.String()+info.Text()), nil
	}
}
