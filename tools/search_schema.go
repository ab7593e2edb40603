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
	// Message says plainly when nothing matched: the tables are then
	// empty rather than the top of a ranking of unrelated tables.
	Message string `json:"message,omitempty"`
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
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "tables": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "columns": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number", "description": "Fused retrieval score; compare within one result only."}, "evidence": {"type": "array", "items": {"type": "string", "enum": ["text", "value", "mention", "vector"]}, "description": "What ties the table to the text: text (a shared word in a name, comment or sample), value (a stored value spelled in the text), mention (a name spelled out), vector (an embedding that stands out); empty for a table kept only to join others."}}}}, "values": {"type": "array", "items": {"type": "object"}}, "message": {"type": "string", "description": "Set when nothing matched the text; tables is then empty."}}, "required": ["datasource", "tables"]}`))
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
		if !sel.Relevant() {
			out := SearchOutput{Selection: &index.Selection{Datasource: sel.Datasource, Tables: []index.TableSelection{}},
				Message: "nothing in this datasource matched the text: no table or column name, comment, sample or stored value shares a word with it. The data may not hold the answer; describe_schema lists every table you may see"}
			return FitStructured(eng, out, out.Message+"\n"), nil
		}
		var b strings.Builder
		for _, t := range sel.Tables {
			ev := "joins others"
			if len(t.Evidence) > 0 {
				ev = strings.Join(t.Evidence, "+")
			}
			fmt.Fprintf(&b, "%s (score %g, %s): %s\n", t.Name, t.Score, ev, strings.Join(t.Columns, ", "))
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
		return FitStructured(eng, SearchOutput{Selection: sel, Semantic: info}, b.String()+info.Text()), nil
	}
}
